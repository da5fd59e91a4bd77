# One block holds the whole product (stages 02 and 03): thread (i, j) has
# copied As[i][j] and Bs[i][j] (dark), and after the barrier it reads row i
# of As and column j of Bs (light: copied by other threads) to make C[i][j].
#   n, i, j: the matrix size and the thread to follow.
load figdir.'/style.gp'
set size ratio -1
unset border; unset tics; unset key
set margins 0, 0, 0, 0
gap = 1.2
set xrange [-0.5 : 3 * n + 2 * gap + 0.5]
set yrange [-1.6 : n + 1]
o = 0
do for [m = 0:2] {
    ox = m * (n + gap)
    do for [r = 0:n - 1] { do for [c = 0:n - 1] {
        o = o + 1
        used = (m == 0 && r == i) || (m == 1 && c == j) || (m == 2 && r == i && c == j)
        own = (m < 2 && r == i && c == j)
        set object o rect from ox + c, n - r - 1 to ox + c + 1, n - r \
            fc rgb (used ? accent : '#ffffff') fs solid (own ? 0.9 : (used ? 0.35 : 1)) \
            border rgb '#7f8c99' lw 1
        set label sprintf('%s%d%d', (m == 0 ? 'a' : (m == 1 ? 'b' : 'c')), r, c) \
            at ox + c + 0.5, n - r - 0.5 center font sprintf(',%d', n > 4 ? 6 : 9) tc rgb (own ? '#ffffff' : '#222222')
    } }
}
set label 'As (shared)' at n / 2.0, n + 0.5 center font ',10'
set label 'Bs (shared)' at n + gap + n / 2.0, n + 0.5 center font ',10'
set label 'C (global)' at 2 * (n + gap) + n / 2.0, n + 0.5 center font ',10'
set label sprintf('thread (tx, ty) = (%d, %d): dark, the two elements it copied; light, the %d it reads that other threads copied', j, i, 2 * n - 2) \
    at 0, -0.8 left font ',8'
plot 1/0
