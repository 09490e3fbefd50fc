# Sourced by run.sh and cpu.sh: a private icecast2 for a bench run.
# write_icecast_config DIR PORT SOURCE_PASSWORD: DIR/icecast.xml for 127.0.0.1:PORT, its logs in
# DIR/log. Run as root icecast2 drops to nobody, so DIR is made reachable by it.
write_icecast_config() {
    local dir="$1" port="$2" password="$3" changeowner=""
    mkdir -p "$dir/log"
    chmod -R 777 "$dir"
    [[ "$(id -u)" == 0 ]] && changeowner="<changeowner><user>nobody</user><group>nogroup</group></changeowner>"
    cat >"$dir/icecast.xml" <<XML
<icecast>
  <limits><sources>8</sources><clients>100</clients></limits>
  <authentication><source-password>$password</source-password><admin-user>admin</admin-user><admin-password>adminpw</admin-password></authentication>
  <location>bench</location><admin>bench@localhost</admin><hostname>127.0.0.1</hostname>
  <listen-socket><port>$port</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <paths><basedir>/usr/share/icecast2</basedir><logdir>$dir/log</logdir>
    <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
  <logging><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
  <security><chroot>0</chroot>$changeowner</security>
</icecast>
XML
}
