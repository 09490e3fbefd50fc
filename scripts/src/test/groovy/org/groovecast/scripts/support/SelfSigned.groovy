package org.groovecast.scripts.support

import java.nio.file.Files
import java.nio.file.Path
import java.security.cert.CertificateFactory
import java.security.cert.X509Certificate

/** A self-signed certificate for 127.0.0.1 made by openssl for a test: its PEM files and its serial. */
final class SelfSigned {
    final Path cert
    final Path key
    /** Certificate then key in one file, as Icecast's ssl-certificate wants them. */
    final Path combined
    final BigInteger serial

    /** @param expired made valid for a day of 2020 only (openssl req cannot date a certificate in the past; openssl ca can) */
    SelfSigned(Path dir, String name, boolean expired = false) {
        Files.createDirectories(dir)
        cert = dir.resolve("${name}.crt")
        key = dir.resolve("${name}.key")
        combined = dir.resolve("${name}.pem")
        if (expired) {
            Path ca = dir.resolve("${name}-ca")
            Files.createDirectories(ca)
            Files.writeString(ca.resolve('ca.cnf'), "[ca]\ndefault_ca = d\n[d]\ndatabase = ${ca}/index.txt\nnew_certs_dir = ${ca}\n" +
                    "serial = ${ca}/serial\ndefault_md = sha256\npolicy = p\n[p]\ncommonName = supplied\n")
            Files.writeString(ca.resolve('index.txt'), '')
            Files.writeString(ca.resolve('serial'), '01\n')
            Media.run(['openssl', 'req', '-new', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', key.toString(),
                       '-out', ca.resolve('r.csr').toString()])
            Media.run(['openssl', 'ca', '-config', ca.resolve('ca.cnf').toString(), '-selfsign', '-keyfile', key.toString(),
                       '-in', ca.resolve('r.csr').toString(), '-out', cert.toString(), '-startdate', '20200101000000Z',
                       '-enddate', '20200102000000Z', '-batch', '-notext'])
        } else {
            Media.run(['openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '30', '-subj', '/CN=127.0.0.1',
                       '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key.toString(), '-out', cert.toString()])
        }
        Files.writeString(combined, Files.readString(cert) + Files.readString(key))
        serial = Files.newInputStream(cert).withCloseable { (CertificateFactory.getInstance("X.509").generateCertificate(it) as X509Certificate).serialNumber }
    }
}
