# Shared look of every slide figure (loaded by each script): a PDF sized to
# sit under a frame title of a 16:9 beamer deck, sans-serif like the slides.
# Scripts may set w and h (inches) before loading this.
if (!exists("w")) w = 5.6
if (!exists("h")) h = 2.55
set terminal pdfcairo size w, h font 'Sans,8' linewidth 1
set output out
# The one accent colour: "this stage", "this warp", "this thread".
accent = '#c0392b'
muted = '#9aa5b1'
