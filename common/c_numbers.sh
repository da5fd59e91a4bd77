# Sourced by the kit's scripts that write numbers and read them back (awk,
# bash's printf), and by grader/lib.sh: C's numbers whatever the user's
# locale.  Under one that writes 1,5 (de_DE, fr_FR, ...) mawk reads "1.5"
# as 1 and printf puts commas into reports and lessons.  Text stays UTF-8
# where the machine has C.UTF-8.  common/backend.mk takes its LC_ALL from
# here for everything make runs.
case "${LC_ALL:-}" in
    C | C.UTF-8 | C.utf8 | POSIX) ;;
    *) if locale -a 2>/dev/null | grep -qix 'c\.utf-\{0,1\}8'; then export LC_ALL=C.UTF-8; else export LC_ALL=C; fi ;;
esac
