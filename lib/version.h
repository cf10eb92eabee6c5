/*
 * The version line of every lto-ld program: lto-ld's --version (after
 * ld's own text), lto-ar's, lto-nm's and lto-ranlib's (after the real
 * tool's) and lto-sizediff's.
 */
#ifndef LTO_LD_VERSION_H
#define LTO_LD_VERSION_H

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "dev"
#endif

#define LTO_LD_VERSION_LINE \
	"lto-ld " PACKAGE_VERSION " (GCC LTO for direct ld invocations)\n"

#endif
