/**
 * Who may ask the harbor and how much they may hold: the port's limits, connection counts per
 * address, failed logins and bans, and the proxies trusted to name a client.
 */
package org.groovecast.net.harbor.clients;
