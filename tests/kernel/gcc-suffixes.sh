# The suffixes GCC gives the copies it makes of a function or variable
# (clones, privatized statics: foo.constprop.0, foo.lto_priv.3,
# foo.cold), for the kernel checks to set aside: lib/symname.c's rule
# (SYMNAME_CLONES), whose words test-symname checks this list against.
# Sourced by parity.sh and compare-console.sh.  (lto-ld itself drops
# only .lto_priv.N from the objects its LTO writes: the other copies are
# functions of their own.)
gcc_suffix_words='lto_priv|constprop|isra|part|cold|localalias|clone'
# one suffix, maybe with its number, as an ERE
gcc_suffix_ere="\\.($gcc_suffix_words)(\\.[0-9]+)?"
