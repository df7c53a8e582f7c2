// How the orchestrator's own cost grows: sweep expansion, job script rendering, result
// ingestion, the maxima query and `pbench --help` start-up, each run in a child process so that
// its peak resident memory (wait4's ru_maxrss) is its own. Prints each figure beside its target
// from issue 9 and, for a missed target, by how much it is missed.
//
// usage: orchestrator_scale [RESULT_DOCUMENT_DIR [PBENCH_BINARY]]
//        orchestrator_scale --ingest-only N [--validate-only] [RESULT_DOCUMENT_DIR]
//        orchestrator_scale --system-only STORE
// The second form only makes N documents and ingests them (or, with --validate-only, only reads,
// parses and validates them) in this process, for a profiler: e.g. valgrind --tool=callgrind
// --toggle-collect='pbench::ingest::Ingester::ingest_file*' counts the instructions of ingestion
// alone (--toggle-collect='pbench::ingest::parse_and_validate*' with --validate-only).
// The third form times only `query system` on the 1,000,000-row io store STORE, made first if
// the file does not exist (kept, so that a change to the views is measured on the same store).
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ingest/Ingester.hpp"
#include "query/SystemQuery.hpp"
#include "run/SweepPlanner.hpp"
#include "store/Store.hpp"
#include "sweep/SweepSpec.hpp"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// What one stage reports through a pipe to the parent: its measured figure and a count.
struct StageFigure {
  double value = 0;
  double count = 0;
};

struct StageResult {
  StageFigure figure;
  long max_rss_kib = 0;
  bool ok = false;
};

/// Runs `stage` in a child; the child's own peak resident memory comes from wait4.
StageResult run_in_child(const std::function<StageFigure()>& stage) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(fds[0]);
    int code = 0;
    try {
      StageFigure f = stage();
      if (write(fds[1], &f, sizeof f) != static_cast<ssize_t>(sizeof f)) code = 2;
    } catch (const std::exception& e) {
      std::cerr << "stage failed: " << e.what() << "\n";
      code = 1;
    }
    std::cout.flush();
    _exit(code);
  }
  close(fds[1]);
  StageResult result;
  const ssize_t got = read(fds[0], &result.figure, sizeof result.figure);
  close(fds[0]);
  int status = 0;
  struct rusage usage {};
  wait4(pid, &status, 0, &usage);
  result.max_rss_kib = usage.ru_maxrss;
  result.ok = got == static_cast<ssize_t>(sizeof result.figure) && WIFEXITED(status) &&
              WEXITSTATUS(status) == 0;
  return result;
}

/// "met" or "MISSED by X (Y% over/under)" for a figure that should be below `limit`.
std::string below(double value, double limit, const char* unit) {
  std::ostringstream out;
  out.precision(3);
  if (value < limit) {
    out << "met (" << value / limit * 100 << "% of the limit)";
  } else {
    out << "MISSED by " << value - limit << " " << unit << " (" << (value / limit - 1) * 100
        << "% over)";
  }
  return out.str();
}

/// The same for a figure that should be at least `floor`.
std::string at_least(double value, double floor, const char* unit) {
  std::ostringstream out;
  out.precision(3);
  if (value >= floor) {
    out << "met (" << value / floor * 100 << "% of the target)";
  } else {
    out << "MISSED by " << floor - value << " " << unit << " (" << (1 - value / floor) * 100
        << "% short)";
  }
  return out.str();
}

/// A logp sweep of partitions 1..P and queue depths 1..D: P*D points.
pbench::sweep::SweepSpec logp_sweep(int partitions, int depths) {
  pbench::sweep::SweepSpec spec;
  spec.name = "scale";
  spec.partitions.clear();
  spec.queue_depths.clear();
  for (int p = 1; p <= partitions; ++p) spec.partitions.push_back(p);
  for (int d = 1; d <= depths; ++d) spec.queue_depths.push_back(d);
  return spec;
}

StageFigure expand_stage(int partitions, int depths) {
  const auto spec = logp_sweep(partitions, depths);
  const auto start = Clock::now();
  spec.validate();
  const auto points = pbench::sweep::expand(spec);
  return {seconds_since(start), static_cast<double>(points.size())};
}

StageFigure render_stage(int partitions, int depths, const std::string& runs_dir) {
  const auto spec = logp_sweep(partitions, depths);
  pbench::run::PlanOptions options;
  options.runs_dir = runs_dir;
  const auto start = Clock::now();
  const auto plan = pbench::run::make_plan(spec, options);
  double bytes = 0;
  for (const auto& p : plan.points) bytes += p.script.size();
  const double elapsed = seconds_since(start);
  if (bytes == 0) throw std::runtime_error("no script rendered");
  return {elapsed, static_cast<double>(plan.points.size())};
}

/// Multiplies every fractional number in `j` by a random factor,
/// so that each document is distinct and of the realistic size of its template.
void vary(nlohmann::json& j, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> factor(0.5, 1.5);
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) vary(it.value(), rng);
  } else if (j.is_array()) {
    for (auto& item : j) vary(item, rng);
  } else if (j.is_number_float() && j.get<double>() != std::floor(j.get<double>())) {
    // Integral floats stay as they are: the contract reads them as integers (counts, sizes).
    j = j.get<double>() * factor(rng);
  }
}

/// Writes `count` documents made from the good examples in `source_dir` with varied values.
std::vector<std::string> make_documents(const std::string& source_dir, const fs::path& out_dir,
                                        int count, double& mean_bytes) {
  std::vector<nlohmann::json> templates;
  for (const auto& entry : fs::directory_iterator(source_dir)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    templates.push_back(nlohmann::json::parse(in));
  }
  std::sort(templates.begin(), templates.end(),
            [](const auto& a, const auto& b) { return a.dump() < b.dump(); });
  if (templates.empty()) throw std::runtime_error("no result documents in " + source_dir);
  std::mt19937_64 rng(20261122);
  std::vector<std::string> paths;
  double bytes = 0;
  fs::create_directories(out_dir);
  for (int i = 0; i < count; ++i) {
    nlohmann::json doc = templates[i % templates.size()];
    vary(doc, rng);
    doc["seeds"]["bench_document"] = i;  // distinct even without fractional values
    const std::string text = doc.dump(2);
    bytes += text.size();
    const fs::path path = out_dir / ("result-" + std::to_string(i) + ".json");
    std::ofstream(path) << text;
    paths.push_back(path.string());
  }
  mean_bytes = bytes / count;
  return paths;
}

/// Reads, parses and validates every document (no store): the validation's share of ingestion.
StageFigure validate_stage(const std::vector<std::string>& paths) {
  const auto start = Clock::now();
  for (const auto& path : paths) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    (void)pbench::ingest::parse_and_validate(text.str(), path);
  }
  return StageFigure{seconds_since(start), static_cast<double>(paths.size())};
}

StageFigure ingest_stage(const std::vector<std::string>& paths, const fs::path& store_path,
                         bool synchronous_full = false) {
  auto store =
      pbench::store::Store::open(store_path.string(), pbench::store::Store::Access::create);
  if (synchronous_full) store.db().exec("PRAGMA synchronous=FULL");
  pbench::ingest::Ingester ingester(store);
  const auto start = Clock::now();
  std::size_t stored = 0;
  for (const auto& path : paths) {
    if (!ingester.ingest_file(path).duplicate) ++stored;
  }
  const double elapsed = seconds_since(start);
  if (stored != paths.size()) throw std::runtime_error("duplicate documents among the inputs");
  return {elapsed, static_cast<double>(stored)};
}

/// One point of a hand-made sweep (no job script is ever run).
pbench::store::PointRecord make_point(const std::string& key, const std::string& worker,
                                      int partition, const std::string& params_json) {
  pbench::store::PointRecord point;
  point.key = key;
  point.worker = worker;
  point.partition = partition;
  point.params_json = params_json;
  point.script_path = "job.sh";
  return point;
}

/// Stores a hand-made local sweep named `name` with `points` (their ids are set).
void insert_sweep(pbench::store::Store& store, const std::string& name,
                  std::vector<pbench::store::PointRecord>& points) {
  pbench::store::SweepRecord sweep;
  sweep.name = name;
  sweep.spec_json = "{}";
  sweep.scheduler = "local";
  sweep.directory = "/nonexistent";
  store.insert_sweep(sweep, points);
}

/// Fills a store with one sweep of `partitions` points, `results` results spread over them and
/// `per_result` metrics each (10 metric names), straight through SQL.
void fill_metrics(const fs::path& store_path, int partitions, int results, int per_result) {
  auto store =
      pbench::store::Store::open(store_path.string(), pbench::store::Store::Access::create);
  std::vector<pbench::store::PointRecord> points;
  for (int p = 1; p <= partitions; ++p) {
    points.push_back(make_point("k" + std::to_string(p), "logp", p, "{}"));
  }
  insert_sweep(store, "scale", points);
  auto& db = store.db();
  db.exec("BEGIN");
  auto result = db.prepare(
      "INSERT INTO results (point_id, document_hash, schema_version, worker, worker_version, "
      "nprocs, valid, started_at, ended_at, ingested_at, document) "
      "VALUES (?, ?, 1, 'logp', '0', ?, 1, 't', 't', 't', '{}')");
  auto metric = db.prepare(
      "INSERT INTO metrics (result_id, name, value, unit, samples, labels) "
      "VALUES (?, ?, ?, 'B/s', 100, ?)");
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> value(1e6, 1e10);
  for (int r = 0; r < results; ++r) {
    const auto& point = points[r % points.size()];
    result.reset();
    result.bind(1, point.id).bind(2, "h" + std::to_string(r)).bind(3, point.partition).run();
    const std::int64_t result_id = db.last_insert_rowid();
    for (int m = 0; m < per_result; ++m) {
      metric.reset();
      metric.bind(1, result_id)
          .bind(2, "metric" + std::to_string(m % 10))
          .bind(3, value(rng))
          .bind(4, "{\"size\":" + std::to_string(m) + "}")
          .run();
    }
  }
  db.exec("COMMIT");
  db.exec("ANALYZE");
}

/// The maxima query: for each partition, the largest value of one metric and the result that
/// holds it (SQLite takes the bare columns from the row of the maximum). Best of `repeats`.
StageFigure maxima_stage(const fs::path& store_path, int repeats) {
  auto store =
      pbench::store::Store::open(store_path.string(), pbench::store::Store::Access::read_only);
  double best = 1e30;
  double rows = 0;
  for (int i = 0; i < repeats; ++i) {
    const auto start = Clock::now();
    auto query = store.db().prepare(
        "SELECT p.partition, MAX(m.value), m.result_id, m.labels FROM metrics m "
        "JOIN results r ON r.id = m.result_id JOIN points p ON p.id = r.point_id "
        "WHERE m.name = ? GROUP BY p.partition ORDER BY p.partition");
    query.bind(1, "metric3");
    rows = 0;
    while (query.step()) ++rows;
    best = std::min(best, seconds_since(start));
  }
  return {best, rows};
}

/// Fills a store with an io sweep shaped like a large real one: `points` points (partitions 1..
/// `partitions`, the rest of the grid T x hint sets), one result each plus a superseded older
/// result for every tenth point, and `per_result` metrics per result: b_eff_io and
/// schedule_time labelled with the partition, the rest per-pattern-type figures.
/// Returns the number of metric rows written.
double fill_io_sweep(const fs::path& store_path, int points_count, int partitions, int per_result) {
  auto store =
      pbench::store::Store::open(store_path.string(), pbench::store::Store::Access::create);
  std::vector<pbench::store::PointRecord> points;
  for (int i = 0; i < points_count; ++i) {
    points.push_back(make_point("io" + std::to_string(i), "io", 1 + i % partitions,
                                "{\"T\":" + std::to_string(10 + (i / partitions) % 5) +
                                    ",\"hints\":\"set" + std::to_string(i / partitions / 5) +
                                    "\"}"));
  }
  insert_sweep(store, "scale-io", points);
  auto& db = store.db();
  db.exec("BEGIN");
  auto result = db.prepare(
      "INSERT INTO results (point_id, document_hash, schema_version, worker, worker_version, "
      "nprocs, valid, started_at, ended_at, ingested_at, document) "
      "VALUES (?, ?, 1, 'io', '0', ?, ?, 't', 't', 't', ?)");
  auto metric = db.prepare(
      "INSERT INTO metrics (result_id, name, value, unit, samples, labels) "
      "VALUES (?, ?, ?, ?, 100, ?)");
  // Documents of the realistic size (the ingest stage's are ~4.5 kB): the query must not read
  // them, and large rows spread the results table over many pages as in a real store.
  const std::string document = "{\"pad\":\"" + std::string(4500, 'x') + "\"}";
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> value(1e6, 1e10);
  double rows = 0;
  int serial = 0;
  auto add_result = [&](const pbench::store::PointRecord& point) {
    const int n = serial++;
    result.reset();
    result.bind(1, point.id)
        .bind(2, "h" + std::to_string(n))
        .bind(3, point.partition)
        .bind(4, static_cast<std::int64_t>(n % 7 != 0))  // every seventh result not valid
        .bind(5, document)
        .run();
    const std::int64_t result_id = db.last_insert_rowid();
    const std::string partition_label = "{\"partition\":" + std::to_string(point.partition) + "}";
    for (int m = 0; m < per_result; ++m) {
      metric.reset();
      metric.bind(1, result_id);
      if (m == 0) {
        metric.bind(2, "b_eff_io").bind(3, value(rng)).bind(4, "B/s").bind(5, partition_label);
      } else if (m == 1) {
        metric.bind(2, "schedule_time").bind(3, 10.0).bind(4, "s").bind(5, partition_label);
      } else {
        metric.bind(2, "b_eff_io_type")
            .bind(3, value(rng))
            .bind(4, "B/s")
            .bind(5, "{\"partition\":" + std::to_string(point.partition) + ",\"type\":" +
                         std::to_string(m % 5) + ",\"access\":" + std::to_string(m % 3) + "}");
      }
      metric.run();
      ++rows;
    }
  };
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (i % 10 == 0) add_result(points[i]);  // an older attempt, superseded by the next
    add_result(points[i]);
  }
  db.exec("COMMIT");
  db.exec("ANALYZE");
  return rows;
}

/// `pbench query system` itself (system_table) on the io sweep: b_eff_io as the maximum over
/// partitions, T and hint sets of the newest result of each point. Best of `repeats`. A store
/// filled through SQL has no kept answer, so the query computes it from the views; with
/// `answered`, the store first answers the headline as collect does (the time that takes is the
/// figure's count, in seconds) and the query reads the kept answer.
StageFigure system_stage(const fs::path& store_path, int repeats, bool answered = false) {
  double answering = 0;
  {
    auto writer =
        pbench::store::Store::open(store_path.string(), pbench::store::Store::Access::existing);
    writer.db().exec("DELETE FROM headline_answered");
    if (answered) {
      const auto start = Clock::now();
      writer.answer_headlines();
      answering = seconds_since(start);
    }
  }
  auto store =
      pbench::store::Store::open(store_path.string(), pbench::store::Store::Access::read_only);
  double best = 1e30;
  for (int i = 0; i < repeats; ++i) {
    const auto start = Clock::now();
    const auto table = pbench::query::system_table(store, std::string("scale-io"), {});
    best = std::min(best, seconds_since(start));
    if (table.rows.empty() || table.rows.front().size() < 3 ||
        !std::holds_alternative<double>(table.rows.front()[2])) {
      throw std::runtime_error("the system query found no b_eff_io");
    }
  }
  return {best, answering};
}

/// Median wall time of `runs` runs of `pbench --help` (output discarded).
StageFigure startup_stage(const std::string& binary, int runs) {
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    const auto start = Clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
      std::freopen("/dev/null", "w", stdout);
      execl(binary.c_str(), binary.c_str(), "--help", static_cast<char*>(nullptr));
      _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    times.push_back(seconds_since(start));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error("pbench failed");
  }
  std::sort(times.begin(), times.end());
  return {times[times.size() / 2], static_cast<double>(runs)};
}

void row(const char* what, const StageResult& r, const std::string& figure,
         const std::string& verdict) {
  std::printf("%-46s %-26s %9.1f MiB  %s\n", what, figure.c_str(), r.max_rss_kib / 1024.0,
              r.ok ? verdict.c_str() : "FAILED (see stderr)");
}

std::string fmt(const char* format, double a, double b = 0) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, a, b);
  return buffer;
}

}  // namespace

/// The --ingest-only form (see the top of this file).
static int ingest_only(int argc, char** argv) {
  const int count = std::stoi(argv[2]);
  int next = 3;
  const bool validate_only = argc > next && std::string(argv[next]) == "--validate-only";
  if (validate_only) ++next;
  const std::string documents =
      argc > next ? argv[next] : PBENCH_SOURCE_DIR "/tests/data/results/good";
  std::string pattern = (fs::temp_directory_path() / "pbench-ingest-XXXXXX").string();
  if (!mkdtemp(pattern.data())) return 1;
  const fs::path dir = pattern;
  double mean_bytes = 0;
  const auto paths = make_documents(documents, dir / "docs", count, mean_bytes);
  StageFigure figure;
  if (validate_only) {
    figure = validate_stage(paths);
  } else {
    figure = ingest_stage(paths, dir / "ingest.sqlite");
  }
  std::printf("%s %.0f documents of %.0f bytes on average: %.0f docs/s (%.3f s)\n",
              validate_only ? "validated" : "ingested", figure.count, mean_bytes,
              figure.count / figure.value, figure.value);
  fs::remove_all(dir);
  return 0;
}

/// The --system-only form (see the top of this file).
static int system_only(const fs::path& store_path) {
  if (!fs::exists(store_path)) {
    const auto start = Clock::now();
    const double rows = fill_io_sweep(store_path, 9091, 64, 100);
    std::printf("filled %s: %.0f metric rows in %.2f s\n", store_path.c_str(), rows,
                seconds_since(start));
  }
  const auto computed = system_stage(store_path, 5);
  std::printf("pbench query system, computed from the views: %.1f ms (best of 5)\n",
              computed.value * 1e3);
  const auto answered = system_stage(store_path, 5, true);
  std::printf("pbench query system, the kept answer: %.1f ms (best of 5; answering it once, as "
              "collect does: %.1f ms)\n",
              answered.value * 1e3, answered.count * 1e3);
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 2 && std::string(argv[1]) == "--ingest-only") return ingest_only(argc, argv);
  if (argc > 2 && std::string(argv[1]) == "--system-only") return system_only(argv[2]);
  const std::string documents = argc > 1 ? argv[1] : PBENCH_SOURCE_DIR "/tests/data/results/good";
  const std::string binary = argc > 2 ? argv[2] : PBENCH_BINARY;
  std::string pattern = (fs::temp_directory_path() / "pbench-scale-XXXXXX").string();
  if (!mkdtemp(pattern.data())) return 1;
  const fs::path dir = pattern;
  std::printf("%-46s %-26s %13s  %s\n", "stage", "figure", "peak RSS", "target");

  const auto baseline = run_in_child([] { return StageFigure{0, 0}; });
  row("baseline (a forked child doing nothing)", baseline, "-", "-");

  const auto expand_10k = run_in_child([] { return expand_stage(100, 100); });
  row("expand 10,000-point sweep", expand_10k,
      fmt("%.3f s (%.0f points)", expand_10k.figure.value, expand_10k.figure.count), "-");
  const auto expand_100k = run_in_child([] { return expand_stage(100, 1000); });
  row("expand 100,000-point sweep", expand_100k,
      fmt("%.3f s (%.0f points)", expand_100k.figure.value, expand_100k.figure.count),
      "< 1 s: " + below(expand_100k.figure.value, 1.0, "s"));

  const auto render_1k =
      run_in_child([&] { return render_stage(10, 100, (dir / "runs").string()); });
  row("render 1,000 job scripts (make_plan)", render_1k,
      fmt("%.3f s (%.0f scripts)", render_1k.figure.value, render_1k.figure.count), "-");
  const auto render_10k =
      run_in_child([&] { return render_stage(10, 1000, (dir / "runs").string()); });
  row("render 10,000 job scripts (make_plan)", render_10k,
      fmt("%.3f s (%.0f scripts)", render_10k.figure.value, render_10k.figure.count),
      fmt("%.0f scripts/s", render_10k.figure.count / render_10k.figure.value) +
          " (no target in the issue)");

  double mean_bytes = 0;
  const auto paths = make_documents(documents, dir / "docs", 10000, mean_bytes);
  const auto ingest = run_in_child([&] { return ingest_stage(paths, dir / "ingest.sqlite"); });
  const double per_second = ingest.figure.count / ingest.figure.value;
  row("ingest 10,000 documents (Ingester, file store)", ingest,
      fmt("%.0f docs/s (%.2f s)", per_second, ingest.figure.value),
      ">= 2000 docs/s: " + at_least(per_second, 2000, "docs/s"));
  // For comparison only: an fsync at each commit (synchronous=FULL, SQLite's default; pbench
  // sets NORMAL, with which a power cut in WAL mode may lose the last commits, never the store).
  const auto unsynced =
      run_in_child([&] { return ingest_stage(paths, dir / "ingest-full.sqlite", true); });
  row("  same, PRAGMA synchronous=FULL (not pbench's)", unsynced,
      fmt("%.0f docs/s (%.2f s)", unsynced.figure.count / unsynced.figure.value,
          unsynced.figure.value),
      at_least(unsynced.figure.count / unsynced.figure.value, 2000, "docs/s"));
  // Where the time goes: reading, parsing and validating alone (no store).
  const auto validate = run_in_child([&] { return validate_stage(paths); });
  row("  of which reading+validating alone", validate,
      fmt("%.0f docs/s (%.2f s)", validate.figure.count / validate.figure.value,
          validate.figure.value),
      "-");
  std::printf("  documents: %.0f bytes on average, from %s with varied values\n", mean_bytes,
              documents.c_str());

  const auto fill = run_in_child([&] {
    const auto start = Clock::now();
    fill_metrics(dir / "metrics.sqlite", 64, 10000, 100);
    return StageFigure{seconds_since(start), 1e6};
  });
  row("fill 1,000,000 metric rows (setup, SQL)", fill, fmt("%.2f s", fill.figure.value), "-");
  const auto maxima = run_in_child([&] { return maxima_stage(dir / "metrics.sqlite", 5); });
  row("raw SQL maxima over 1,000,000 metric rows", maxima,
      fmt("%.1f ms (%.0f partitions)", maxima.figure.value * 1e3, maxima.figure.count),
      "< 50 ms: " + below(maxima.figure.value * 1e3, 50, "ms"));
  std::printf(
      "  query: max of one metric name (100,000 of the rows) over every result, superseded ones\n"
      "  included, per partition (64) in one GROUP BY; not pbench's query (the next rows), best of "
      "5\n");
  double io_rows = 0;
  const auto fill_io = run_in_child([&] {
    const auto start = Clock::now();
    io_rows = fill_io_sweep(dir / "system.sqlite", 9091, 64, 100);
    return StageFigure{seconds_since(start), io_rows};
  });
  row("fill an io sweep, 1,000,000 metric rows (setup)", fill_io,
      fmt("%.2f s (%.0f rows)", fill_io.figure.value, fill_io.figure.count), "-");
  const auto system = run_in_child([&] { return system_stage(dir / "system.sqlite", 5); });
  row("pbench query system, computed from the views", system,
      fmt("%.1f ms (best of 5)", system.figure.value * 1e3),
      "< 50 ms: " + below(system.figure.value * 1e3, 50, "ms"));
  const auto kept = run_in_child([&] { return system_stage(dir / "system.sqlite", 5, true); });
  row("pbench query system, the kept answer", kept,
      fmt("%.1f ms (best of 5)", kept.figure.value * 1e3),
      "< 50 ms: " + below(kept.figure.value * 1e3, 50, "ms"));
  std::printf(
      "  store: 9,091 io points (64 partitions x T x hint sets), 10,001 results of 4.5 kB (every "
      "tenth point retried), 100 metrics each; b_eff_io, the maximum over partitions, T and hint\n"
      "  sets. Computed: what a store without a kept answer (filled through SQL) costs, the view\n"
      "  headlines; kept: after answering it once as collect does (%.1f ms), store version 8's\n"
      "  headline_answers (bench/README.md)\n",
      kept.figure.count * 1e3);

  const auto startup = run_in_child([&] { return startup_stage(binary, 21); });
  row("pbench --help start-up", startup,
      fmt("%.1f ms (median of %.0f)", startup.figure.value * 1e3, startup.figure.count),
      "< 20 ms: " + below(startup.figure.value * 1e3, 20, "ms"));
  std::printf("  (peak RSS of this row is the forking child's, not pbench's; see below)\n");
  {
    const auto help = run_in_child([&] {
      std::freopen("/dev/null", "w", stdout);
      execl(binary.c_str(), binary.c_str(), "--help", static_cast<char*>(nullptr));
      return StageFigure{};
    });
    std::printf("%-46s %-26s %9.1f MiB\n", "pbench --help (exec'd, its own peak RSS)", "-",
                help.max_rss_kib / 1024.0);
  }

  // Memory against the sweep: growth above the baseline from 10,000 to 100,000 points (x10)
  // and from 1,000 to 10,000 scripts (x10).
  auto growth = [&](const StageResult& small, const StageResult& large) {
    const double a = std::max(1L, small.max_rss_kib - baseline.max_rss_kib);
    const double b = std::max(1L, large.max_rss_kib - baseline.max_rss_kib);
    return b / a;
  };
  const double expand_growth = growth(expand_10k, expand_100k);
  const double render_growth = growth(render_1k, render_10k);
  std::printf("memory growth, expansion x10 points: x%.2f  %s\n", expand_growth,
              below(expand_growth, 10.0001, "x").c_str());
  std::printf("memory growth, rendering x10 scripts: x%.2f  %s\n", render_growth,
              below(render_growth, 10.0001, "x").c_str());
  std::printf("  (target: memory grows no faster than the sweep, i.e. at most x10)\n");

  fs::remove_all(dir);
  const bool all_ok = baseline.ok && expand_10k.ok && expand_100k.ok && render_1k.ok &&
                      render_10k.ok && ingest.ok && fill.ok && maxima.ok && fill_io.ok &&
                      system.ok && kept.ok && startup.ok;
  return all_ok ? 0 : 1;
}
