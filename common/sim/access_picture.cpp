// See access_picture.h.  Plain SVG, written by hand: lanes on top, banks
// below, a line from each lane to the bank of every word it touches; a bank
// that serves several different words (a conflict: one wavefront each) is
// drawn red, and the legend names its words by array and slot.
#include "access_picture.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "shared_names.h"

namespace sim {
namespace {

constexpr int lane_count = 32, bank_count = 32, cell = 30, left = 70, top = 70, gap = 190;

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

}  // namespace

bool write_access_picture(const char *path, const access_sample &sample, const std::string &where)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    // The distinct 4-byte words each bank serves, and which lanes ask.
    std::map<unsigned, std::set<uint32_t>> words_of_bank;
    std::vector<std::set<unsigned>> banks_of_lane(sample.lane_bytes.size());
    for (size_t l = 0; l < sample.lane_bytes.size(); l++)
        for (uint32_t b = 0; b < std::max<uint32_t>(sample.size, 4); b += 4) {
            uint32_t word = (sample.lane_bytes[l] + b) / 4;
            words_of_bank[word % bank_count].insert(word);
            banks_of_lane[l].insert(word % bank_count);
        }
    unsigned worst_bank = 0, worst = 0;
    for (auto &b : words_of_bank)
        if (b.second.size() > worst) {
            worst = (unsigned)b.second.size();
            worst_bank = b.first;
        }
    const int width = left + bank_count * cell + 40, height = top + gap + 150;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n",
            width, height);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    std::string title = where + ", one warp's shared " + (sample.store ? "store" : "load") + " of " +
                        std::to_string(sample.size) + " bytes per lane: " +
                        (sample.degree > 1 ? std::to_string(sample.degree) + "-way bank conflict"
                                           : std::string("no bank conflict"));
    fprintf(f, "<text x=\"%d\" y=\"24\" font-size=\"14\" font-weight=\"bold\">%s</text>\n", left - 50,
            escaped(title).c_str());
    fprintf(f, "<text x=\"%d\" y=\"%d\">lane</text>\n", 10, top + 18);
    fprintf(f, "<text x=\"%d\" y=\"%d\">bank</text>\n", 10, top + gap + 18);
    // Lines first, so the boxes sit on top of them.
    for (size_t l = 0; l < banks_of_lane.size() && l < (size_t)lane_count; l++)
        for (unsigned b : banks_of_lane[l]) {
            bool conflict = words_of_bank[b].size() > 1;
            fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1\"/>\n",
                    left + (int)l * cell + cell / 2, top + 26, left + (int)b * cell + cell / 2, top + gap,
                    conflict ? "#c0392b" : "#7f8c8d");
        }
    for (int l = 0; l < lane_count; l++)
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"26\" fill=\"%s\" stroke=\"#34495e\"/>"
                   "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>\n",
                left + l * cell + 1, top, cell - 2, l < (int)banks_of_lane.size() ? "#ecf0f1" : "white",
                left + l * cell + cell / 2, top + 17, l);
    for (int b = 0; b < bank_count; b++) {
        size_t n = words_of_bank.count(b) ? words_of_bank[b].size() : 0;
        const char *fill = n > 1 ? "#f5b7b1" : n == 1 ? "#d5f5e3" : "white";
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"26\" fill=\"%s\" stroke=\"#34495e\"/>"
                   "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>\n",
                left + b * cell + 1, top + gap, cell - 2, fill, left + b * cell + cell / 2, top + gap + 17, b);
        if (n > 1)
            fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#c0392b\">%zux</text>\n",
                    left + b * cell + cell / 2, top + gap + 42, n);
    }
    // The legend: what the worst bank holds, by array and slot.
    int y = top + gap + 72;
    if (worst > 1) {
        std::string names;
        unsigned shown = 0;
        for (uint32_t word : words_of_bank[worst_bank]) {
            if (shown == 4) {
                names += ", ...";
                break;
            }
            std::string name = shared_slot_name((long)word * 4);
            size_t paren = name.find(" (");
            names += (shown ? ", " : "") + (name.empty() ? "word " + std::to_string(word) : name.substr(0, paren));
            shown++;
        }
        fprintf(f, "<text x=\"%d\" y=\"%d\">Bank %u serves %u different words (%s): one wavefront each, %u passes "
                   "where one would do.</text>\n",
                left - 50, y, worst_bank, worst, escaped(names).c_str(), sample.degree);
    } else {
        fprintf(f, "<text x=\"%d\" y=\"%d\">Every bank serves at most one word (lanes asking for the same word share "
                   "it, a broadcast): one pass.</text>\n",
                left - 50, y);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#7f8c8d\">Red lines and banks: words that wait their turn. Drawn by "
               "the kit's CPU simulator (make check) from the run's own addresses.</text>\n",
            left - 50, y + 20);
    fprintf(f, "</svg>\n");
    return fclose(f) == 0;
}

}  // namespace sim
