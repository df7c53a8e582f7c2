#pragma once
// Reading TOML values with errors that name the file and key (`sweep file PATH: key: expected
// ...`): shared by sweep files and site profiles.
#include <toml++/toml.h>

#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sweep/ConsortiumSweep.hpp"
#include "sweep/Partition.hpp"
#include "util/Error.hpp"

namespace pbench::sweep {

class TomlReader {
 public:
  /// `origin` starts every error: "sweep file PATH", "site profile PATH".
  explicit TomlReader(std::string origin) : origin_(std::move(origin)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw UsageError(origin_ + ": " + key + ": " + what);
  }

  void only_keys(const toml::table& table, const std::string& where,
                 const std::set<std::string>& known) const {
    for (const auto& [key, value] : table) {
      if (!known.count(std::string(key.str()))) {
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
        fail(where + std::string(key.str()), "unknown key (known: " + list + ")");
      }
    }
  }

  std::string text(const toml::node& node, const std::string& key) const {
    if (auto s = node.value<std::string>()) return *s;
    fail(key, "expected a string");
  }

  int integer(const toml::node& node, const std::string& key) const {
    auto v = node.value_exact<std::int64_t>();
    if (!v || *v < 1 || *v > 1000000000) fail(key, "expected a positive integer");
    return static_cast<int>(*v);
  }

  std::vector<int> integers(const toml::node& node, const std::string& key) const {
    const auto* array = node.as_array();
    if (!array) fail(key, "expected an array of positive integers");
    std::vector<int> out;
    for (std::size_t i = 0; i < array->size(); ++i) {
      out.push_back(integer(*array->get(i), key + "[" + std::to_string(i) + "]"));
    }
    return out;
  }

  // Plain partitions as integers (8), shapes as strings ("2x4"), as --partitions reads them.
  std::vector<Partition> partitions(const toml::node& node, const std::string& key) const {
    const auto* array = node.as_array();
    if (!array) fail(key, "expected an array of partitions (8 or \"2x4\")");
    std::vector<Partition> out;
    for (std::size_t i = 0; i < array->size(); ++i) {
      const std::string where = key + "[" + std::to_string(i) + "]";
      const auto* item = array->get(i);
      if (item->value_exact<std::int64_t>()) {
        out.push_back(integer(*item, where));
      } else if (auto t = item->value_exact<std::string>()) {
        out.push_back(parse_partition(*t, origin_ + ": " + where));
      } else {
        fail(where, "expected a partition (8 or \"2x4\")");
      }
    }
    return out;
  }

  std::vector<std::string> texts(const toml::node& node, const std::string& key) const {
    const auto* array = node.as_array();
    if (!array) fail(key, "expected an array of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < array->size(); ++i) {
      out.push_back(text(*array->get(i), key + "[" + std::to_string(i) + "]"));
    }
    return out;
  }

  std::vector<double> seconds(const toml::node& node, const std::string& key) const {
    const auto* array = node.as_array();
    if (!array) fail(key, "expected an array of positive numbers of seconds");
    std::vector<double> out;
    for (std::size_t i = 0; i < array->size(); ++i) {
      const auto value = array->get(i)->value<double>();  // integers too
      if (!value || !(*value > 0)) {
        fail(key + "[" + std::to_string(i) + "]", "expected a positive number of seconds");
      }
      out.push_back(*value);
    }
    return out;
  }

  std::vector<bool> switches(const toml::node& node, const std::string& key) const {
    const auto* array = node.as_array();
    if (!array) fail(key, "expected an array of booleans");
    std::vector<bool> out;
    for (std::size_t i = 0; i < array->size(); ++i) {
      const auto value = array->get(i)->value_exact<bool>();
      if (!value) fail(key + "[" + std::to_string(i) + "]", "expected true or false");
      out.push_back(*value);
    }
    return out;
  }

  // Sizes as integers (bytes) or strings with units ("64KiB"), as --transfer-sizes reads them.
  std::vector<std::int64_t> sizes(const toml::node& node, const std::string& key) const {
    const auto* array = node.as_array();
    if (!array) fail(key, "expected an array of sizes (4096 or \"64KiB\")");
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < array->size(); ++i) {
      const std::string where = key + "[" + std::to_string(i) + "]";
      const auto* item = array->get(i);
      std::string text;
      if (auto n = item->value_exact<std::int64_t>()) {
        text = std::to_string(*n);
      } else if (auto t = item->value_exact<std::string>()) {
        text = *t;
      } else {
        fail(where, "expected a size (4096 or \"64KiB\")");
      }
      try {
        out.push_back(parse_size_list(text, where).at(0));
      } catch (const UsageError& e) {
        throw UsageError(origin_ + ": " + e.what());
      }
    }
    return out;
  }

  // A worker parameter: its value as the command line would give it.
  std::string setting(const toml::node& node, const std::string& key) const {
    if (auto s = node.value_exact<std::string>()) return *s;
    if (auto i = node.value_exact<std::int64_t>()) return std::to_string(*i);
    if (auto b = node.value_exact<bool>()) return *b ? "true" : "false";
    if (auto d = node.value_exact<double>()) {
      std::ostringstream out;
      out.precision(17);
      out << *d;
      return out.str();
    }
    fail(key, "expected a string, integer, float or boolean");
  }

 private:
  std::string origin_;
};

}  // namespace pbench::sweep
