# The CPU seconds a shell's finished children took, from what its `times`
# printed (two lines: the shell's own user and system time, then its
# children's, each as 1m2.345s):  times > FILE; awk -f cpu_seconds.awk FILE
# (`times` run by that shell itself: in $(...) a subshell's children are
# counted, which are none).
NR == 2 {
    split($1, user_time, /[ms]/)
    split($2, system_time, /[ms]/)
    printf "%d\n", user_time[1] * 60 + user_time[2] + system_time[1] * 60 + system_time[2]
}
