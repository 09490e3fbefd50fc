/**
 * Static files a harbor port serves: a directory's lookup (no escape out of it, symbolic links as
 * the settings allow) and the cache of small files answered from memory.
 */
package org.groovecast.net.harbor.files;
