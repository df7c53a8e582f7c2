#include "io/HintSet.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <map>
#include <stdexcept>
#include <tuple>

namespace pbench::io {

namespace {

bool valid_key(const std::string& key) {
  return !key.empty() && std::all_of(key.begin(), key.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '_' || c == '-' || c == '.';
  });
}

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

}  // namespace

Hint HintSet::parse(const std::string& text, const std::string& source) {
  Hint hint;
  hint.source = source;
  std::string rest = trim(text);
  const auto colon = rest.find(':');
  const auto equals = rest.find('=');
  if (colon != std::string::npos && colon < equals && rest.rfind("type", 0) == 0) {
    const std::string number = rest.substr(4, colon - 4);
    if (number.size() != 1 || number[0] < '0' || number[0] > '4') {
      throw std::invalid_argument("hint '" + text + "': the pattern type must be type0..type4");
    }
    hint.type = number[0] - '0';
    rest = rest.substr(colon + 1);
  }
  const auto eq = rest.find('=');
  if (eq == std::string::npos) {
    throw std::invalid_argument("hint '" + text + "' is not key=value");
  }
  hint.key = trim(rest.substr(0, eq));
  hint.value = trim(rest.substr(eq + 1));
  if (!valid_key(hint.key)) {
    throw std::invalid_argument("hint '" + text + "': '" + hint.key +
                                "' is not a hint key (letters, digits, _ - .)");
  }
  if (hint.value.empty()) throw std::invalid_argument("hint '" + text + "' has no value");
  return hint;
}

void HintSet::add(Hint hint) {
  auto same = [&](const Hint& h) { return h.key == hint.key && h.type == hint.type; };
  hints_.erase(std::remove_if(hints_.begin(), hints_.end(), same), hints_.end());
  hints_.push_back(std::move(hint));
}

void HintSet::add_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw std::invalid_argument("cannot read hints file '" + path + "': " + std::strerror(errno));
  }
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string text = trim(line);
    if (text.empty() || text[0] == '#') continue;
    try {
      add(parse(text, "hints_file"));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("hints file '" + path + "' line " + std::to_string(number) +
                                  ": " + e.what());
    }
  }
}

void HintSet::add_environment(char** environment) {
  const std::string prefix = "PBENCH_HINT_";
  std::vector<Hint> found;
  for (char** e = environment; e && *e; ++e) {
    const std::string entry = *e;
    if (entry.rfind(prefix, 0) != 0) continue;
    const auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    std::string key = entry.substr(prefix.size(), eq - prefix.size());
    std::transform(key.begin(), key.end(), key.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::string text = key + "=" + entry.substr(eq + 1);
    if (key.size() > 6 && key.rfind("type", 0) == 0 && key[5] == '_' && std::isdigit(key[4])) {
      text = key.substr(0, 5) + ":" + key.substr(6) + "=" + entry.substr(eq + 1);
    }
    try {
      found.push_back(parse(text, "environment"));
    } catch (const std::invalid_argument& err) {
      throw std::invalid_argument(entry.substr(0, eq) + ": " + err.what());
    }
  }
  // The environment's order is arbitrary: sort so the echo is stable.
  std::sort(found.begin(), found.end(), [](const Hint& a, const Hint& b) {
    return std::tie(a.type, a.key) < std::tie(b.type, b.key);
  });
  for (auto& h : found) add(std::move(h));
}

HintList HintSet::for_type(int type) const {
  std::map<std::string, std::string> merged;
  for (const auto& h : hints_) {
    if (!h.type) merged[h.key] = h.value;
  }
  for (const auto& h : hints_) {
    if (h.type && *h.type == type) merged[h.key] = h.value;
  }
  return {merged.begin(), merged.end()};
}

}  // namespace pbench::io
