#include "jobs/JobTemplate.hpp"

#include <algorithm>
#include <utility>

#include "jobs/ShellQuote.hpp"
#include "pbench_jobtemplates.hpp"
#include "util/Error.hpp"

namespace pbench::jobs {
namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || c == '_' || (c >= '0' && c <= '9');
}

}  // namespace

JobTemplate::JobTemplate(std::string name, std::string text) : name_(std::move(name)) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t open = text.find("{{", pos);
    if (open == std::string::npos) {
      pieces_.push_back({false, text.substr(pos)});
      break;
    }
    if (open > pos) pieces_.push_back({false, text.substr(pos, open - pos)});
    const std::size_t close = text.find("}}", open + 2);
    const std::string placeholder =
        close == std::string::npos ? "" : text.substr(open + 2, close - open - 2);
    bool valid = !placeholder.empty();
    for (char c : placeholder) valid = valid && is_name_char(c);
    if (!valid) {
      const std::size_t line =
          1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + open, '\n'));
      throw UsageError("template " + name_ + ", line " + std::to_string(line) +
                       ": malformed placeholder (expected {{name}} with lower case, digits, _)");
    }
    pieces_.push_back({true, placeholder});
    placeholders_.insert(placeholder);
    pos = close + 2;
  }
}

std::string JobTemplate::render(const std::map<std::string, TemplateValue>& values,
                                const std::set<std::string>& required) const {
  for (const auto& r : required) {
    if (!placeholders_.count(r)) {
      throw UsageError("template " + name_ + " does not use the required placeholder {{" + r +
                       "}}");
    }
  }
  std::string out;
  // Set after a placeholder of no lines that began its line: its line break goes too.
  bool drop_line_break = false;
  for (const auto& piece : pieces_) {
    const bool after_no_lines = std::exchange(drop_line_break, false);
    if (!piece.is_placeholder) {
      out += after_no_lines && piece.text.front() == '\n' ? piece.text.substr(1) : piece.text;
      continue;
    }
    auto it = values.find(piece.text);
    if (it == values.end()) {
      std::string known;
      for (const auto& [k, v] : values) known += (known.empty() ? "" : ", ") + k;
      throw UsageError("template " + name_ + ": unknown placeholder {{" + piece.text +
                       "}} (known: " + known + ")");
    }
    if (const auto* word = std::get_if<std::string>(&it->second)) {
      out += shell_quote(*word);
    } else if (const auto* command = std::get_if<std::vector<std::string>>(&it->second)) {
      out += shell_join(*command);
    } else {
      const auto& lines = std::get<VerbatimLines>(it->second).lines;
      drop_line_break = lines.empty() && (out.empty() || out.back() == '\n');
      for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].find_first_of(std::string("\n\r\0", 3)) != std::string::npos) {
          throw UsageError("template " + name_ + ": a line for {{" + piece.text +
                           "}} holds a line break or NUL: '" + lines[i] + "'");
        }
        out += (i == 0 ? "" : "\n") + lines[i];
      }
    }
  }
  return out;
}

JobTemplate JobTemplate::builtin() {
  return JobTemplate("job.sh", std::string(jobtemplates::job_sh()));
}

}  // namespace pbench::jobs
