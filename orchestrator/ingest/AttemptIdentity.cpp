#include "ingest/AttemptIdentity.hpp"

namespace pbench::ingest {
namespace {

/// "sweep 'a', point 0123..., attempt-2" from the parts given.
std::string describe(const std::string& sweep, const std::string& point,
                     const std::string& attempt) {
  std::string out = "sweep '" + sweep + "'";
  out += ", point " + (point.empty() ? std::string("(none)") : point);
  out += ", " + (attempt.empty() ? std::string("attempt (none)") : attempt);
  return out;
}

std::string text_of(const nlohmann::json& origin, const char* key) {
  const auto it = origin.find(key);
  return it != origin.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::string origin_mismatch(const nlohmann::json& doc, const AttemptIdentity& expected) {
  const std::string asked = describe(expected.sweep, expected.point, expected.attempt);
  const auto origin = doc.find("origin");
  if (origin == doc.end() || !origin->is_object()) {
    if (!expected.nonce) return "";
    return "its document names no sweep, point or attempt, but this attempt's job gave its "
           "worker one (" +
           asked + "): not written by this attempt's worker";
  }
  const std::string sweep = text_of(*origin, "sweep");
  const std::string point = text_of(*origin, "point");
  const std::string attempt = text_of(*origin, "attempt");
  if (sweep != expected.sweep || point != expected.point || attempt != expected.attempt) {
    return "written for " + describe(sweep, point, attempt) + ", not for this attempt (" + asked +
           ")";
  }
  if (expected.nonce && text_of(*origin, "nonce") != *expected.nonce) {
    return "written for " + asked + " by another run of it (its nonce " +
           (origin->contains("nonce") ? text_of(*origin, "nonce") : std::string("(none)")) +
           " is not this attempt's " + *expected.nonce + ")";
  }
  return "";
}

std::map<std::string, std::string> option_values(const std::vector<std::string>& arguments) {
  std::map<std::string, std::string> values;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& word = arguments[i];
    if (word.rfind("--", 0) != 0) continue;
    if (const auto equals = word.find('='); equals != std::string::npos) {
      values[word.substr(0, equals)] = word.substr(equals + 1);
    } else if (i + 1 < arguments.size() && arguments[i + 1].rfind("--", 0) != 0) {
      values[word] = arguments[++i];
    } else {
      values[word] = "";
    }
  }
  return values;
}

std::string argument_mismatch(const nlohmann::json& doc, const std::vector<std::string>& fixed) {
  if (fixed.empty()) return "";
  const auto recorded = doc.find("arguments");
  if (recorded == doc.end() || !recorded->is_array()) {
    return "its document does not record the arguments it ran with, so it cannot be held to its "
           "point's (" +
           std::to_string(option_values(fixed).size()) + " fixed)";
  }
  const auto ran = option_values(recorded->get<std::vector<std::string>>());
  std::string out;
  for (const auto& [option, value] : option_values(fixed)) {
    const auto it = ran.find(option);
    std::string difference;
    if (it == ran.end()) {
      difference = "ran without " + option + ", its point fixed " + value;
    } else if (it->second != value) {
      difference = "ran with " + option + " " + it->second + ", its point fixed " + value;
    }
    if (!difference.empty()) out += (out.empty() ? "" : "; ") + difference;
  }
  return out;
}

}  // namespace pbench::ingest
