#include "comm/CommReport.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <tuple>

#include "comm/NodeCrossings.hpp"
#include "comm/RingLayout.hpp"
#include "common/ResultDocument.hpp"

namespace pbench::comm {
namespace {

constexpr double kMega = 1e6;              // MB/s = 10^6 B/s, as the original protocol
constexpr double kMebi = 1024.0 * 1024.0;  // MiB for memory and L_max

std::string format(const char* spec, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), spec, value);
  return text;
}

std::string mb(const std::optional<double>& bps, int width = 12) {
  if (!bps) return std::string(static_cast<std::size_t>(width - 3), ' ') + "n/a";
  char text[64];
  std::snprintf(text, sizeof(text), "%*.3f", width, *bps / kMega);
  return text;
}

std::string us(const std::optional<double>& seconds) {
  return seconds ? format("%.3f us", *seconds * 1e6) : "n/a";
}

std::optional<double> per_process(const std::optional<double>& v, int n) {
  if (!v) return std::nullopt;
  return *v / n;
}

std::string join_ints(const std::vector<int>& values, const char* separator = ",") {
  std::string out;
  for (int v : values) out += (out.empty() ? "" : separator) + std::to_string(v);
  return out;
}

std::string ring_summary(const std::vector<int>& ring_sizes) {
  // "2,2,3" in full for few rings, else grouped: "12x8, 4x9"
  if (ring_sizes.size() <= 8) return join_ints(ring_sizes);
  std::string out;
  std::size_t i = 0;
  while (i < ring_sizes.size()) {
    std::size_t j = i;
    while (j < ring_sizes.size() && ring_sizes[j] == ring_sizes[i]) ++j;
    out += (out.empty() ? "" : ", ") + std::to_string(j - i) + " rings of " +
           std::to_string(ring_sizes[i]);
    i = j;
  }
  return out;
}

std::string methods_text(const std::vector<Method>& methods) {
  std::string out;
  for (Method m : methods) out += (out.empty() ? "" : ", ") + method_title(m);
  return out;
}

nlohmann::json optional_json(const std::optional<double>& v) {
  return v && std::isfinite(*v) ? nlohmann::json(*v) : nlohmann::json();
}

}  // namespace

CommReport::CommReport(const CommConfig& config, const PatternSet& patterns, MessageSizes sizes,
                       std::string memory_source, bool seed_drawn,
                       std::optional<worker::NodeLayout> nodes)
    : config_(config),
      patterns_(patterns),
      sizes_(std::move(sizes)),
      memory_source_(std::move(memory_source)),
      seed_drawn_(seed_drawn),
      nodes_(std::move(nodes)),
      nprocs_(static_cast<int>(patterns.patterns.front().steps.size())) {}

std::string CommReport::seed_note(std::uint32_t seed, bool drawn) {
  return std::string("random patterns drawn from seed ") + std::to_string(seed) +
         (drawn ? " (drawn at start)" : " (given)") +
         ", recorded in seeds.random_patterns: unlike the original b_eff, which seeds them from "
         "the time of day, the run can be repeated with --seed " +
         std::to_string(seed);
}

BeffInput CommReport::reduction_input() const {
  BeffInput input;
  for (const Pattern& p : patterns_.patterns) input.kinds.push_back(p.kind);
  input.pingpong = patterns_.pingpong;
  input.positions = config_.positions;
  input.sizes = sizes_.sizes;
  input.nprocs = nprocs_;
  return input;
}

void CommReport::header(std::ostream& out) const {
  out << "pbench-comm: effective bandwidth b_eff (Rabenseifner & Koniges) on " << nprocs_
      << " processes\n";
  out << "memory per process: " << sizes_.memory_per_process << " B ("
      << format("%.1f", static_cast<double>(sizes_.memory_per_process) / kMebi) << " MiB, "
      << memory_source_ << ")\n";
  out << "L_max = memory/128 = " << sizes_.l_max_from_memory << " B";
  if (sizes_.clamped) out << ", clamped to " << sizes_.l_max << " B (128 MiB, 32-bit int limit)";
  out << "\nmessage sizes [B]:";
  for (std::size_t i = 0; i < sizes_.sizes.size(); ++i) {
    const bool measured = std::find(config_.positions.begin(), config_.positions.end(),
                                    static_cast<int>(i)) != config_.positions.end();
    out << ' ' << (measured ? "" : "(") << sizes_.sizes[i] << (measured ? "" : ")");
  }
  out << (config_.positions.size() < sizes_.sizes.size() ? "   (in parentheses: not measured)" : "")
      << "\nmethods: " << methods_text(config_.methods)
      << "; the ping-pong uses MPI_Send/MPI_Recv\n";
  out << "repetitions: " << config_.repetitions << " (the maximum counts); loop length "
      << config_.start_looplength << " for the shortest message, then aiming at "
      << format("%g", config_.window_min * 1e3) << " to " << format("%g", config_.window_max * 1e3)
      << " ms per measurement, at least 1; a barrier and one untimed warm-up iteration before "
         "each measurement\n";
  out << "random patterns: " << config_.random_patterns << "; "
      << seed_note(patterns_.seed, seed_drawn_) << "\n";
  out << "\npatterns (messages: sent per iteration by all processes):\n";
  for (std::size_t i = 0; i < patterns_.patterns.size(); ++i) {
    const Pattern& p = patterns_.patterns[i];
    if (i == static_cast<std::size_t>(kRingPatterns)) {
      out << "  -- random rings, averaged into b_random:\n";
    } else if (i == 0) {
      out << "  -- rings, averaged into b_ring:\n";
    } else if (p.kind == PatternKind::kExtra &&
               patterns_.patterns[i - 1].kind != PatternKind::kExtra) {
      out << "  -- additional patterns, reported, not part of b_eff:\n";
    }
    char line[512];
    std::snprintf(line, sizeof(line), "  p%02zu %-18s %6lld messages, %5d processes  %s", i,
                  p.label.c_str(), p.messages_per_iteration(), p.participants(), p.shape.c_str());
    out << line;
    if (p.kind == PatternKind::kRing) out << "; ring sizes " << ring_summary(p.ring_sizes);
    out << "\n";
  }
  out << "\n" << std::flush;
}

void CommReport::progress(std::ostream& out, int repetition, int position, double elapsed) const {
  char line[160];
  std::snprintf(line, sizeof(line), "repetition %d of %d, L = %lld B (size %d of 21), %.1f s\n",
                repetition + 1, config_.repetitions,
                static_cast<long long>(sizes_.sizes[static_cast<std::size_t>(position)]),
                position + 1, elapsed);
  out << line << std::flush;
}

void CommReport::results(std::ostream& out, const BenchmarkOutcome& outcome,
                         const BeffFigures& figures, const std::vector<std::string>& reasons,
                         const std::vector<std::string>& warnings) const {
  out << "\nmeasurement loop: " << format("%.1f", outcome.elapsed) << " s, " << outcome.rows.size()
      << " of " << outcome.planned << " measurements\n";

  // best[pattern][method][position] over repetitions
  std::map<std::tuple<int, Method, int>, double> best;
  for (const Measurement& m : outcome.rows) {
    auto& b = best[{m.pattern, m.method, m.position}];
    if (std::isfinite(m.bandwidth)) b = std::max(b, m.bandwidth);
  }
  out << "\nbandwidth by message size, per pattern and method: accumulated over all processes, "
         "MB/s (10^6 B/s), the maximum over repetitions; 'best' is the maximum over methods\n";
  for (std::size_t pi = 0; pi < patterns_.patterns.size(); ++pi) {
    const Pattern& p = patterns_.patterns[pi];
    const std::vector<Method> methods =
        p.sendrecv_only ? std::vector<Method>{Method::kSendrecv} : config_.methods;
    out << "\np" << format("%02.0f", static_cast<double>(pi)) << " " << p.label << " (" << p.shape
        << ")\n";
    char line[512];
    std::snprintf(line, sizeof(line), "  %12s", "L [B]");
    out << line;
    for (Method m : methods) {
      std::snprintf(line, sizeof(line), " %20s", method_title(m).c_str());
      out << line;
    }
    std::snprintf(line, sizeof(line), " %14s %14s\n", "best", "best/process");
    out << line;
    for (std::size_t k = 0; k < config_.positions.size(); ++k) {
      const int position = config_.positions[k];
      std::snprintf(line, sizeof(line), "  %12lld",
                    static_cast<long long>(sizes_.sizes[static_cast<std::size_t>(position)]));
      out << line;
      for (Method m : methods) {
        const auto it = best.find({static_cast<int>(pi), m, position});
        out << ' ' << mb(it == best.end() ? std::nullopt : std::optional<double>(it->second), 20);
      }
      const auto& b = figures.best[pi][k];
      out << ' ' << mb(b, 14) << ' ' << mb(per_process(b, nprocs_), 14) << "\n";
    }
  }

  out << "\nb_pat per pattern: the average over message sizes of the best bandwidth, MB/s\n";
  for (std::size_t pi = 0; pi < patterns_.patterns.size(); ++pi) {
    const Pattern& p = patterns_.patterns[pi];
    char line[256];
    std::snprintf(line, sizeof(line), "  p%02zu %-18s %-7s", pi, p.label.c_str(),
                  kind_name(p.kind).c_str());
    out << line << mb(figures.b_pattern[pi].value, 14) << " accumulated "
        << mb(per_process(figures.b_pattern[pi].value, nprocs_), 12) << " per process";
    if (nodes_) {
      const NodeCrossings c = NodeCrossings::of(p, *nodes_);
      out << ", " << c.crossing_messages << "/" << c.messages << " messages cross nodes";
    }
    out << "\n";
  }
  out << "  b_ring   (logavg of the ring patterns)   " << mb(figures.b_ring.value, 14) << "\n";
  out << "  b_random (logavg of the random patterns) " << mb(figures.b_random.value, 14) << "\n";
  out << "  b_eff    (logavg of b_ring and b_random) " << mb(figures.b_eff.value, 14) << "\n";

  const int n = nprocs_;
  out << "\nsummary, the columns of the paper's Table 1 (MB/s = 10^6 B/s):\n";
  out << "  number of processes                      " << n << "\n";
  out << "  b_eff                                  " << mb(figures.b_eff.value, 14) << " MB/s\n";
  out << "  b_eff per process                      " << mb(per_process(figures.b_eff.value, n), 14)
      << " MB/s\n";
  if (nodes_) {
    std::string label = "b_eff per node (" + std::to_string(nodes_->node_count()) +
                        (nodes_->node_count() == 1 ? " node)" : " nodes)");
    label.resize(std::max<std::size_t>(label.size(), 39), ' ');
    out << "  " << label << mb(per_process(figures.b_eff.value, nodes_->node_count()), 14)
        << " MB/s\n";
  }
  out << "  L_max                                  "
      << format("%14.0f", static_cast<double>(sizes_.l_max)) << " B ("
      << format("%.1f", static_cast<double>(sizes_.l_max) / kMebi) << " MiB)\n";
  out << "  ping-pong bandwidth (at L_max)         " << mb(figures.pingpong_bandwidth.value, 14)
      << " MB/s\n";
  out << "  b_eff at L_max                         " << mb(figures.b_eff_at_lmax.value, 14)
      << " MB/s\n";
  out << "  b_eff per process at L_max             "
      << mb(per_process(figures.b_eff_at_lmax.value, n), 14) << " MB/s\n";
  out << "  b_eff per process at L_max, ring pat.  "
      << mb(per_process(figures.b_ring_at_lmax.value, n), 14) << " MB/s\n";
  out << "latency from the 1-byte measurements (the original protocol): n * 1 B / b(1 B), the time "
         "of one message step of one process\n";
  out << "  rings and random: " << us(figures.latency_rings_random.value)
      << ", rings only: " << us(figures.latency_rings.value)
      << ", ping-pong (half the round trip): " << us(figures.latency_pingpong.value) << "\n";
  if (config_.rmax) {
    const auto balance = figures.b_eff.value
                             ? std::optional<double>(*figures.b_eff.value / *config_.rmax)
                             : std::nullopt;
    out << "balance factor b_eff / R_max: "
        << (balance ? format("%.6g", *balance) : std::string("n/a"))
        << " B/flop (R_max = " << format("%.6g", *config_.rmax) << " flop/s)\n";
  }
  for (const auto& w : warnings) out << "warning: " << w << "\n";
  if (reasons.empty()) {
    out << "result: valid\n";
  } else {
    for (const auto& r : reasons) out << "NOT VALID: " << r << "\n";
  }
  out << "\nb_eff = "
      << (figures.b_eff.value ? format("%.3f", *figures.b_eff.value / kMega) : "n/a") << " MB/s = "
      << (figures.b_eff.value ? format("%.3f", *figures.b_eff.value / kMega / n) : "n/a")
      << " MB/s * " << n << " processes with "
      << format("%.1f", static_cast<double>(sizes_.memory_per_process) / kMebi)
      << " MiB memory per process" << (reasons.empty() ? "" : " (NOT VALID)") << "\n"
      << std::flush;
}

std::vector<std::array<std::string, 3>> CommReport::differences_from_b_eff_3_6(
    const CommConfig& config) {
  return {
      {"measurement window",
       "loop length per pattern and method: " + std::to_string(config.start_looplength) +
           " iterations at the first size (--start-looplength), then aimed at " +
           format("%g", config.window_min * 1e3) + "-" + format("%g", config.window_max * 1e3) +
           " ms per measurement (--target-window)",
       "one loop length per message size and method for all patterns, aimed at 0.5 s over all "
       "of them (TIMEPERLOOP): about 11 ms per measurement on 2 processes, 1 B included (there "
       "about 10000 iterations); where the processes share cores, a longer window takes in more "
       "preemptions: lower bandwidths, higher latencies"},
      {"warm-up", "one untimed iteration before every measurement",
       "one untimed iteration for the 18 smallest sizes, none for the 3 largest (WITH_PRELOOPS)"},
      {"repetitions", std::to_string(config.repetitions) + " (--repetitions); the maximum counts",
       "2 (REPETITIONS); the maximum counts"},
      {"message buffers", "page-aligned, every page written before the first measurement",
       "malloc: 16 bytes past a page boundary with glibc, each page first written inside a timed "
       "loop"},
      {"two largest sizes", "every method, every repetition",
       "only the best method with loop length 1 when they are predicted to take over 60 s "
       "(MAX_FOR_LAST_TWO)"},
  };
}

void CommReport::fill(worker::ResultDocument& result, const BenchmarkOutcome& outcome,
                      const BeffFigures& figures) const {
  fill_setup(result);
  fill_measurements(result, outcome);
  fill_figures(result, figures);
}

void CommReport::fill_setup(worker::ResultDocument& result) const {
  result.add_seed("random_patterns", patterns_.seed);
  auto& differences = result.add_table("differences_from_b_eff_3_6",
                                       {{"aspect", ""}, {"pbench", ""}, {"b_eff_3_6", ""}});
  for (const auto& d : differences_from_b_eff_3_6(config_)) differences.add_row({d[0], d[1], d[2]});

  auto& sizes =
      result.add_table("message_sizes", {{"position", "count"}, {"l", "B"}, {"measured", ""}});
  for (std::size_t i = 0; i < sizes_.sizes.size(); ++i) {
    const bool measured = std::find(config_.positions.begin(), config_.positions.end(),
                                    static_cast<int>(i)) != config_.positions.end();
    sizes.add_row({static_cast<int>(i + 1), sizes_.sizes[i], measured});
  }
  result
      .add_table("l_max", {{"memory_per_process", "B"},
                           {"memory_source", ""},
                           {"l_max_from_memory", "B"},
                           {"l_max", "B"},
                           {"clamped", ""},
                           {"clamp_limit", "B"}})
      .add_row({sizes_.memory_per_process, memory_source_, sizes_.l_max_from_memory, sizes_.l_max,
                sizes_.clamped, kLmaxLimit});

  auto& patterns = result.add_table("patterns", {{"pattern", ""},
                                                 {"kind", ""},
                                                 {"shape", ""},
                                                 {"ring_sizes", ""},
                                                 {"order", ""},
                                                 {"messages", "count"},
                                                 {"participants", "count"},
                                                 {"in_b_eff", ""}});
  for (const Pattern& p : patterns_.patterns) {
    patterns.add_row({p.label, kind_name(p.kind), p.shape, join_ints(p.ring_sizes),
                      join_ints(p.order), p.messages_per_iteration(), p.participants(),
                      p.in_b_eff()});
  }

  if (nodes_) {
    // Which ring neighbours run on different nodes: messages per iteration that cross nodes.
    auto& crossings = result.add_table("pattern_nodes", {{"pattern", ""},
                                                         {"messages", "count"},
                                                         {"crossing_messages", "count"},
                                                         {"crossing_neighbours", ""}});
    for (const Pattern& p : patterns_.patterns) {
      const NodeCrossings c = NodeCrossings::of(p, *nodes_);
      crossings.add_row({p.label, c.messages, c.crossing_messages, c.neighbours_text()});
    }
  }
}

void CommReport::fill_measurements(worker::ResultDocument& result,
                                   const BenchmarkOutcome& outcome) const {
  auto& rows = result.add_table("measurements", {{"pattern", ""},
                                                 {"position", "count"},
                                                 {"l", "B"},
                                                 {"method", ""},
                                                 {"repetition", "count"},
                                                 {"looplength", "count"},
                                                 {"time_max", "s"},
                                                 {"time_min", "s"},
                                                 {"time_mean", "s"},
                                                 {"time_stddev", "s"},
                                                 {"bandwidth", "B/s"},
                                                 {"check_errors", "count"}});
  for (const Measurement& m : outcome.rows) {
    rows.add_row({patterns_.patterns[static_cast<std::size_t>(m.pattern)].label, m.position + 1,
                  m.size, method_name(m.method), m.repetition + 1, m.looplength, m.time.max,
                  m.time.min, m.time.mean, m.time.stddev, m.bandwidth, m.check_errors});
  }
}

void CommReport::fill_figures(worker::ResultDocument& result, const BeffFigures& figures) const {
  const int n = nprocs_;
  const auto per = [&](const Figure& f) { return Figure{per_process(f.value, n), f.samples}; };
  result
      .add_table("table1", {{"processes", "count"},
                            {"b_eff", "B/s"},
                            {"b_eff_per_process", "B/s"},
                            {"l_max", "B"},
                            {"pingpong_bandwidth", "B/s"},
                            {"b_eff_at_lmax", "B/s"},
                            {"b_eff_per_process_at_lmax", "B/s"},
                            {"ring_per_process_at_lmax", "B/s"},
                            {"latency_rings_random", "s"},
                            {"latency_rings", "s"},
                            {"latency_pingpong", "s"}})
      .add_row({n, optional_json(figures.b_eff.value), optional_json(per(figures.b_eff).value),
                sizes_.l_max, optional_json(figures.pingpong_bandwidth.value),
                optional_json(figures.b_eff_at_lmax.value),
                optional_json(per(figures.b_eff_at_lmax).value),
                optional_json(per(figures.b_ring_at_lmax).value),
                optional_json(figures.latency_rings_random.value),
                optional_json(figures.latency_rings.value),
                optional_json(figures.latency_pingpong.value)});

  const auto metric = [&](const char* name, const Figure& f, const char* unit) {
    result.add_metric(name, f.value, unit, f.samples);
  };
  metric("b_eff", figures.b_eff, "B/s");
  metric("b_eff_per_process", per(figures.b_eff), "B/s");
  if (nodes_) {
    result.add_metric("b_eff_per_node", per_process(figures.b_eff.value, nodes_->node_count()),
                      "B/s", figures.b_eff.samples);
  }
  result.add_metric("l_max", static_cast<double>(sizes_.l_max), "B", 0);
  metric("pingpong_bandwidth", figures.pingpong_bandwidth, "B/s");
  metric("b_eff_at_lmax", figures.b_eff_at_lmax, "B/s");
  metric("b_eff_per_process_at_lmax", per(figures.b_eff_at_lmax), "B/s");
  metric("ring_per_process_at_lmax", per(figures.b_ring_at_lmax), "B/s");
  metric("b_ring", figures.b_ring, "B/s");
  metric("b_random", figures.b_random, "B/s");
  metric("latency_rings_random", figures.latency_rings_random, "s");
  metric("latency_rings", figures.latency_rings, "s");
  metric("latency_pingpong", figures.latency_pingpong, "s");
  if (config_.rmax) {
    Figure balance{std::nullopt, figures.b_eff.samples};
    if (figures.b_eff.value) balance.value = *figures.b_eff.value / *config_.rmax;
    metric("balance_factor", balance, "B/flop");
  }
  result.add_metric("memory_per_process", static_cast<double>(sizes_.memory_per_process), "B", 0);
  for (std::size_t pi = 0; pi < patterns_.patterns.size(); ++pi) {
    result.add_metric("b_pattern", figures.b_pattern[pi].value, "B/s",
                      figures.b_pattern[pi].samples, {{"pattern", patterns_.patterns[pi].label}});
  }
}

std::string CommReport::describe_text(const CommConfig& config, const PatternSet& set,
                                      const std::optional<MessageSizes>& sizes) {
  std::ostringstream out;
  const int n = config.nprocs;
  out << "pbench-comm patterns for " << n << " processes (messages: sent per iteration by all "
      << "processes)\n";
  out << "ring patterns, averaged into b_ring:\n";
  for (int i : set.of_kind(PatternKind::kRing)) {
    const Pattern& p = set.patterns[static_cast<std::size_t>(i)];
    char line[512];
    std::snprintf(line, sizeof(line), "  %-18s %6lld messages  ring sizes %s\n", p.label.c_str(),
                  p.messages_per_iteration(), ring_summary(p.ring_sizes).c_str());
    out << line;
  }
  const auto random = set.of_kind(PatternKind::kRandom);
  out << "random patterns, averaged into b_random: " << random.size()
      << " rings of all processes in random order, "
      << set.patterns[static_cast<std::size_t>(random.front())].messages_per_iteration()
      << " messages each; ";
  if (config.seed) {
    out << "seed " << *config.seed << "\n";
    if (n <= 64) {
      for (int i : random) {
        const Pattern& p = set.patterns[static_cast<std::size_t>(i)];
        out << "  " << p.label << ": " << join_ints(p.order, " ") << "\n";
      }
    } else {
      out << "  (the orders are in --format json)\n";
    }
  } else {
    out << "seed drawn at the start of the run and recorded in the result (give --seed to fix "
           "it and list the orders)\n";
  }
  out << "additional patterns, reported, not part of b_eff:\n";
  for (int i : set.of_kind(PatternKind::kExtra)) {
    const Pattern& p = set.patterns[static_cast<std::size_t>(i)];
    char line[512];
    std::snprintf(line, sizeof(line), "  %-18s %6lld messages, %5d processes  %s\n",
                  p.label.c_str(), p.messages_per_iteration(), p.participants(), p.shape.c_str());
    out << line;
  }
  if (sizes) {
    out << "message sizes [B] for " << sizes->memory_per_process << " B per process:";
    for (auto s : sizes->sizes) out << ' ' << s;
    out << (sizes->clamped ? " (L_max clamped to 128 MiB)" : "") << "\n";
  } else {
    out << "message sizes: 1 B to 4 KB, then 8 steps to L_max = memory per process / 128 (give "
           "--memory-per-proc to list them)\n";
  }
  return out.str();
}

nlohmann::json CommReport::describe_json(const CommConfig& config, const PatternSet& set,
                                         const std::optional<MessageSizes>& sizes) {
  nlohmann::json patterns = nlohmann::json::array();
  for (std::size_t i = 0; i < set.patterns.size(); ++i) {
    const Pattern& p = set.patterns[i];
    nlohmann::json j = {{"index", i},
                        {"label", p.label},
                        {"kind", kind_name(p.kind)},
                        {"shape", p.shape},
                        {"in_b_eff", p.in_b_eff()},
                        {"messages_per_iteration", p.messages_per_iteration()},
                        {"participants", p.participants()}};
    if (p.kind == PatternKind::kRing) j["ring_sizes"] = p.ring_sizes;
    if (!p.order.empty() && (p.kind != PatternKind::kRandom || config.seed)) j["order"] = p.order;
    patterns.push_back(std::move(j));
  }
  nlohmann::json out = {{"worker", "comm"},
                        {"nprocs", config.nprocs},
                        {"random_patterns", config.random_patterns},
                        {"seed", config.seed ? nlohmann::json(*config.seed) : nlohmann::json()},
                        {"patterns", patterns}};
  if (sizes) {
    out["memory_per_process"] = sizes->memory_per_process;
    out["l_max"] = sizes->l_max;
    out["l_max_clamped"] = sizes->clamped;
    out["message_sizes"] = sizes->sizes;
  }
  return out;
}

}  // namespace pbench::comm
