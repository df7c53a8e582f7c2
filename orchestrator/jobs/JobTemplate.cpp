#include "jobs/JobTemplate.hpp"

#include <algorithm>

#include "jobs/ShellQuote.hpp"
#include "pbench_jobtemplates.hpp"
#include "util/Error.hpp"

namespace pbench::jobs {
namespace {

bool is_name_char(char c) { return (c >= 'a' && c <= 'z') || c == '_' || (c >= '0' && c <= '9'); }

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
      const std::size_t line = 1 + static_cast<std::size_t>(
                                       std::count(text.begin(), text.begin() + open, '\n'));
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
  for (const auto& piece : pieces_) {
    if (!piece.is_placeholder) {
      out += piece.text;
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
    } else {
      out += shell_join(std::get<std::vector<std::string>>(it->second));
    }
  }
  return out;
}

JobTemplate JobTemplate::builtin(const std::string& scheduler) {
  if (scheduler == "local") {
    return JobTemplate("local.sh", std::string(jobtemplates::local_sh()));
  }
  throw UsageError("no built-in job template for scheduler '" + scheduler + "'");
}

}  // namespace pbench::jobs
