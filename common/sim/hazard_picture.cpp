// See hazard_picture.h.  Plain SVG, written by hand: one column per thread,
// program order downwards, the access that must come first above the red
// line where the barrier is missing, the one that must wait below it.
#include "hazard_picture.h"

#include <cstdio>

namespace sim {
namespace {

constexpr int width = 820, column = 390, left = 20, box_height = 64;

std::string escaped(const std::string &s)
{
    std::string out;
    for (char c : s) {
        if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else if (c == '&')
            out += "&amp;";
        else
            out += c;
    }
    return out;
}

// The source text of a step, shortened to fit its box.
std::string fitted(const std::string &source)
{
    constexpr size_t most = 46;  // monospace characters that fit a box
    return source.size() <= most ? source : source.substr(0, most - 3) + "...";
}

void text(FILE *f, int x, int y, const std::string &s, const char *style = "")
{
    fprintf(f, "<text x=\"%d\" y=\"%d\" %s>%s</text>\n", x, y, style, escaped(s).c_str());
}

// One access: a box in its thread's column.
void step_box(FILE *f, const hazard_step &s, const std::string &slot, int x, int y, const char *fill)
{
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"6\" fill=\"%s\" stroke=\"#34495e\"/>\n", x, y,
            column - 20, box_height, fill);
    text(f, x + 10, y + 20, (s.store ? "writes " : "reads ") + (slot.empty() ? std::string("a shared word") : slot) +
                                " at " + s.where, "font-weight=\"bold\"");
    if (!s.source.empty())
        text(f, x + 10, y + 44, fitted(s.source), "font-family=\"monospace\"");
}

}  // namespace

bool write_hazard_picture(const char *path, const hazard_sample &h)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    const bool same_thread_column = h.first.thread == h.second.thread;
    const int top = 104, gap = 70, height = top + 2 * box_height + gap + 110;
    const int first_x = left, second_x = same_thread_column ? left : left + column + 10;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
               "font-size=\"12\">\n",
            width, height);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    std::string title = h.kind + " hazard, " + h.block + ": " +
                        (h.missing_after.empty() ? std::string("no barrier between two writes of one word")
                                                 : "a barrier is missing after " + h.missing_after);
    text(f, left, 24, title, "font-size=\"15\" font-weight=\"bold\"");
    text(f, left, 46, "Program order runs down, each thread in its own column.  Without a barrier, nothing makes",
         "fill=\"#34495e\"");
    text(f, left, 62, "the lower access wait for the upper one.", "fill=\"#34495e\"");
    text(f, first_x + 10, top - 12, h.first.thread, "font-weight=\"bold\"");
    if (!same_thread_column)
        text(f, second_x + 10, top - 12, h.second.thread, "font-weight=\"bold\"");

    step_box(f, h.first, h.slot, first_x, top, h.first.store ? "#d6eaf8" : "#e8f8f5");
    const int line_y = top + box_height + gap / 2;
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#c0392b\" stroke-width=\"3\" "
               "stroke-dasharray=\"10,6\"/>\n",
            left, line_y, width - left, line_y);
    // At the right end, clear of the arrow that crosses the middle.
    text(f, width - left, line_y - 8,
         h.missing_after.empty() ? "no barrier between them" : "missing: " + h.barrier + " after " + h.missing_after,
         "fill=\"#c0392b\" font-weight=\"bold\" text-anchor=\"end\"");
    const int second_y = top + box_height + gap;
    step_box(f, h.second, h.slot, second_x, second_y, h.second.store ? "#d6eaf8" : "#e8f8f5");
    // The order the program needs, which nothing enforces.
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#7f8c8d\" stroke-width=\"2\" "
               "marker-end=\"url(#arrow)\"/>\n",
            first_x + column / 2, top + box_height, second_x + column / 2 - 10, second_y - 2);
    fprintf(f, "<defs><marker id=\"arrow\" markerWidth=\"10\" markerHeight=\"8\" refX=\"9\" refY=\"4\" "
               "orient=\"auto\"><path d=\"M0,0 L10,4 L0,8 z\" fill=\"#7f8c8d\"/></marker></defs>\n");

    std::string why;
    if (h.kind == "read-after-write")
        why = "The read may run before the write: it gets the old value, or none (NaN in the simulator, garbage on a GPU).";
    else if (h.kind == "write-after-read")
        why = "The write may run before the read: the reader gets the new value instead of the one it was meant to read.";
    else
        why = "Both threads write the word: which value stays depends on which runs last.";
    int y = second_y + box_height + 30;
    text(f, left, y, why);
    text(f, left, y + 22,
         "Drawn by the kit's CPU simulator (make check) from the run's own accesses; this pair of lines met " +
             std::to_string(h.count) + (h.count == 1 ? " time." : " times."),
         "fill=\"#7f8c8d\"");
    fprintf(f, "</svg>\n");
    return fclose(f) == 0;
}

}  // namespace sim
