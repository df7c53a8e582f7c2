#include "query/ReferenceFile.hpp"

#include <cmath>
#include <sstream>

#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include "common/MetricCatalogue.hpp"
#include "util/Error.hpp"
#include "util/TextSafety.hpp"

namespace pbench::query {

std::string to_toml(const Reference& reference) {
  toml::table root;
  root.insert("sweep", reference.sweep);
  root.insert("run", reference.run);
  if (!reference.started_at.empty()) root.insert("run_started_at", reference.started_at);
  if (!reference.runs.empty()) root.insert("runs", reference.runs);
  if (!reference.made.empty()) root.insert("made", reference.made);
  root.insert("tolerance", reference.tolerance.text);
  toml::array figures;
  for (const auto& f : reference.figures) {
    toml::table t;
    t.insert("figure", f.figure());
    if (f.partition) t.insert("partition", *f.partition);
    if (!f.label.empty()) t.insert("label", f.label);
    if (!f.env.empty()) t.insert("env", f.env);
    t.insert("value", f.value);
    t.insert("unit", f.unit);
    if (f.tolerance) t.insert("tolerance", f.tolerance->text);
    if (!f.valid) t.insert("valid", false);
    if (!f.valid && !f.reason.empty()) t.insert("reason", f.reason);
    if (f.spread) {
      t.insert("n", f.spread->n);
      t.insert("mad", f.spread->mad);
      t.insert("p5", f.spread->p5);
      t.insert("p95", f.spread->p95);
    }
    figures.push_back(std::move(t));
  }
  root.insert("figure", std::move(figures));
  // The settings the reference's results ran with: check compares a run's with them.
  toml::array definitions;
  for (const auto& d : reference.definitions) {
    toml::table t;
    t.insert("worker", d.worker);
    if (!d.env.empty()) t.insert("env", d.env);
    toml::table settings;
    for (const auto& [name, values] : d.settings) {
      toml::array list;
      for (const auto& v : values) list.push_back(v.dump());
      settings.insert(name, std::move(list));
    }
    t.insert("settings", std::move(settings));
    definitions.push_back(std::move(t));
  }
  if (!definitions.empty()) root.insert("definition", std::move(definitions));
  std::ostringstream out;
  out << "# pbench reference: the headline figures of a sweep (pbench reference); valid = false\n"
      << "# marks a value from a result that did not meet its method's validity rules.\n"
      << "# Each [[figure]] may have its own tolerance: \"5%\" or an amount with a unit "
         "(\"0.2 us\", \"50 MB/s\").\n"
      << "# [[definition]]: the settings the reference's results ran with, per worker and\n"
      << "# environment (each value as JSON); check calls a run under others a changed "
         "definition.\n"
      << root << "\n";
  return out.str();
}

namespace {

// Refuses a key of `table` not in `keys`, naming the file, `where` and the key.
void only_keys(const toml::table& table, std::initializer_list<const char*> keys,
               const std::string& origin, const std::string& where) {
  for (const auto& [key, node] : table) {
    bool known = false;
    for (const char* k : keys) known = known || key.str() == k;
    if (!known) {
      throw UsageError("reference '" + origin + "'" + where + ": unknown key '" +
                       printable_utf8(key.str()) + "'");
    }
  }
}

toml::table parse_toml(const std::string& text, const std::string& origin) {
  try {
    return toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    throw UsageError("reference '" + origin + "' is not TOML (line " + std::to_string(where.line) +
                     ", column " + std::to_string(where.column) +
                     "): " + printable_utf8(e.description()));
  }
}

// The figure's one name ("logp_EEL"); a file of an older pbench names it by worker and metric
// ("logp", "EEL").
const FigureName& figure_name_of(const toml::table& t, const std::string& where) {
  if (!t.contains("figure")) {
    const auto worker = t["worker"].value<std::string>();
    const auto metric = t["metric"].value<std::string>();
    if (!worker || !metric) {
      throw UsageError(where + ": needs figure (a string; an older file: worker and metric)");
    }
    return known_figure(*worker, *metric, where);
  }
  const auto figure = t["figure"].value<std::string>();
  if (!figure) throw UsageError(where + ": figure must be a string (\"logp_g\")");
  if (t.contains("worker") || t.contains("metric")) {
    throw UsageError(where + ": give figure, or worker and metric (an older file), not both");
  }
  const auto* named = by_figure(metrics::figure_spelling(*figure));
  if (named == nullptr) {
    std::string known;
    for (const auto& n : figure_names()) known += (known.empty() ? "" : ", ") + n.figure;
    throw UsageError(where + ": unknown figure '" + printable_utf8(*figure) + "' (known: " + known +
                     ")");
  }
  return *named;
}

// The figure's value and unit, and its partition and label where its kind takes them.
void read_value_and_place(const toml::table& t, const FigureName& name, const std::string& where,
                          ReferenceFigure& f) {
  const auto value = t["value"].value<double>();
  if (!value || !std::isfinite(*value)) throw UsageError(where + ": value must be a number");
  f.value = *value;
  const auto unit = t["unit"].value<std::string>();
  if (!unit) throw UsageError(where + ": needs its unit (a string)");
  if (*unit != name.unit) {
    throw UsageError(where + ": " + name.figure + " is in " + name.unit + ", not '" +
                     printable_utf8(*unit) + "'");
  }
  f.unit = *unit;
  if (name.per_partition) {
    const auto partition = t["partition"].value<std::int64_t>();
    if (!partition || *partition < 1) {
      throw UsageError(where + ": " + name.figure + " needs a partition (processes, >= 1)");
    }
    f.partition = *partition;
  } else if (t.contains("partition")) {
    throw UsageError(where + ": " + name.figure +
                     " is the maximum over partitions; it takes no partition");
  }
  if (name.labelled) {
    const auto label = t["label"].value<std::string>();
    if (!label || label->empty()) {
      throw UsageError(where + ": " + name.figure + " needs a label (the link \"A -> B\" or node)");
    }
    f.label = *label;
  } else if (t.contains("label")) {
    throw UsageError(where + ": " + name.figure + " takes no label");
  }
}

// The figure's optional keys: env, tolerance, valid and reason.
void read_options(const toml::table& t, const std::string& where, ReferenceFigure& f) {
  if (t.contains("env")) {
    const auto env = t["env"].value<std::string>();
    if (!env || env->empty()) throw UsageError(where + ": env must be an environment's name");
    f.env = *env;
  }
  if (t.contains("tolerance")) {
    const auto tolerance = t["tolerance"].value<std::string>();
    if (!tolerance) throw UsageError(where + ": tolerance must be a string like \"5%\"");
    f.tolerance = parse_tolerance(*tolerance, f.unit, where);
  }
  if (t.contains("valid")) {
    const auto valid = t["valid"].value<bool>();
    if (!valid) throw UsageError(where + ": valid must be true or false");
    f.valid = *valid;
  }
  if (t.contains("reason")) {
    const auto reason = t["reason"].value<std::string>();
    if (!reason) throw UsageError(where + ": reason must be a string");
    if (f.valid) throw UsageError(where + ": a reason goes with valid = false");
    f.reason = *reason;
  }
}

// The spread of a figure made from several runs (n, mad, p5, p95), when it has n.
std::optional<FigureSpread> read_spread(const toml::table& t, const std::string& where,
                                        double median) {
  if (!t.contains("n")) return std::nullopt;
  const auto n = t["n"].value<std::int64_t>();
  if (!n || *n < 1) throw UsageError(where + ": n must be a count of runs (>= 1)");
  FigureSpread spread;
  spread.n = static_cast<int>(*n);
  spread.median = median;
  for (const auto& [key, field] : {std::pair<const char*, double*>{"mad", &spread.mad},
                                   {"p5", &spread.p5},
                                   {"p95", &spread.p95}}) {
    const auto x = t[key].value<double>();
    if (!x || !std::isfinite(*x))
      throw UsageError(where + ": " + key + " must be a number (with n)");
    *field = *x;
  }
  return spread;
}

ReferenceFigure read_figure(const toml::node& node, const std::string& origin, int index) {
  const std::string where = "reference '" + origin + "', figure " + std::to_string(index);
  const auto* t = node.as_table();
  if (t == nullptr) throw UsageError(where + ": not a table");
  only_keys(*t,
            {"figure", "worker", "metric", "partition", "label", "env", "value", "unit",
             "tolerance", "valid", "reason", "n", "mad", "p5", "p95"},
            origin, ", figure " + std::to_string(index));
  ReferenceFigure f;
  const auto& name = figure_name_of(*t, where);
  f.worker = name.worker;
  f.metric = name.metric;
  read_value_and_place(*t, name, where, f);
  read_options(*t, where, f);
  f.spread = read_spread(*t, where, f.value);
  return f;
}

Definition read_definition(const toml::node& node, const std::string& origin, int index) {
  const std::string where = "reference '" + origin + "', definition " + std::to_string(index);
  const auto* t = node.as_table();
  if (t == nullptr) throw UsageError(where + ": not a table");
  only_keys(*t, {"worker", "env", "settings"}, origin, ", definition " + std::to_string(index));
  Definition d;
  const auto worker = (*t)["worker"].value<std::string>();
  if (!worker) throw UsageError(where + ": needs worker (a string)");
  d.worker = *worker;
  d.env = (*t)["env"].value_or(std::string());
  const auto* settings = (*t)["settings"].as_table();
  if (settings == nullptr) throw UsageError(where + ": needs settings (a table)");
  for (const auto& [name, values] : *settings) {
    const std::string setting = printable_utf8(std::string(name.str()));
    const auto* list = values.as_array();
    if (list == nullptr) {
      throw UsageError(where + ": setting '" + setting + "' must be a list of values (JSON texts)");
    }
    auto& out = d.settings[std::string(name.str())];
    for (const auto& v : *list) {
      const auto text = v.value<std::string>();
      auto value = text ? nlohmann::json::parse(*text, nullptr, false)
                        : nlohmann::json(nlohmann::json::value_t::discarded);
      if (value.is_discarded()) {
        throw UsageError(where + ": setting '" + setting + "' has a value that is not a JSON text");
      }
      out.push_back(std::move(value));
    }
  }
  return d;
}

// The file's own keys: sweep, run(s), how it was made and the default tolerance.
void read_header(toml::table& root, const std::string& origin, Reference& reference) {
  reference.sweep = root["sweep"].value_or(std::string());
  reference.run = static_cast<int>(root["run"].value_or(std::int64_t{0}));
  reference.started_at = root["run_started_at"].value_or(std::string());
  reference.runs = root["runs"].value_or(std::string());
  reference.made = root["made"].value_or(std::string());
  if (const auto* t = root["tolerance"].as_string()) {
    reference.tolerance = parse_tolerance(t->get(), "", "reference '" + origin + "'");
    if (!reference.tolerance.relative) {
      throw UsageError("reference '" + origin +
                       "': the default tolerance must be a "
                       "percentage; give absolute ones per figure");
    }
  } else if (root.contains("tolerance")) {
    throw UsageError("reference '" + origin + "': tolerance must be a string like \"5%\"");
  }
}

}  // namespace

Reference parse_reference(const std::string& text, const std::string& origin) {
  toml::table root = parse_toml(text, origin);
  only_keys(root,
            {"sweep", "run", "run_started_at", "runs", "made", "tolerance", "figure", "definition"},
            origin, "");
  Reference reference;
  read_header(root, origin, reference);
  const auto* figures = root["figure"].as_array();
  if (figures == nullptr) throw UsageError("reference '" + origin + "' has no [[figure]] entries");
  int index = 0;
  for (const auto& node : *figures) reference.figures.push_back(read_figure(node, origin, ++index));
  if (root.contains("definition")) {
    const auto* definitions = root["definition"].as_array();
    if (definitions == nullptr) {
      throw UsageError("reference '" + origin + "': definition must be [[definition]] tables");
    }
    index = 0;
    for (const auto& node : *definitions) {
      reference.definitions.push_back(read_definition(node, origin, ++index));
    }
  }
  return reference;
}

}  // namespace pbench::query
