// How the orchestrator's own cost grows: sweep expansion, job script rendering, result
// ingestion, the maxima query and `pbench --help` start-up, each run in a child process so that
// its peak resident memory (wait4's ru_maxrss) is its own. Prints each figure beside its target
// from issue 9 and, for a missed target, by how much it is missed.
//
// usage: orchestrator_scale [RESULT_DOCUMENT_DIR [PBENCH_BINARY]]
//        orchestrator_scale --ingest-only N [--validate-only] [RESULT_DOCUMENT_DIR]
//        orchestrator_scale --system-only STORE
//        orchestrator_scale --history SEED_STORE STORE [NIGHTS]
// The second form only makes N documents and ingests them (or, with --validate-only, only reads,
// parses and validates them) in this process, for a profiler: e.g. valgrind --tool=callgrind
// --toggle-collect='pbench::ingest::Ingester::ingest_file*' counts the instructions of ingestion
// alone (--toggle-collect='pbench::ingest::parse_and_validate*' with --validate-only).
// The third form times only `query system` on the 1,000,000-row io store STORE, made first if
// the file does not exist (kept, so that a change to the views is measured on the same store).
// The fourth form is the history stage (bench/orchestrator_history.sh makes SEED_STORE with a
// real sweep and calls it): a decade of nightly runs of the seed's sweep, NIGHTS runs in all
// (default 3653, ten years), made in STORE (when it does not exist) by ingesting each night's
// documents through the collect path, then the commands a centre runs on it timed.
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
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>

#include "ingest/Ingester.hpp"
#include "plan/SweepPlanner.hpp"
#include "query/SystemQuery.hpp"
#include "store/Integrity.hpp"
#include "store/PackedDocument.hpp"
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
  std::vector<int> queue_depths;
  for (int p = 1; p <= partitions; ++p) spec.partitions.push_back(p);
  for (int d = 1; d <= depths; ++d) queue_depths.push_back(d);
  spec.set_values("queue_depth", queue_depths);
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
      "nprocs, valid, started_at, ended_at, ingested_at, head, packed) "
      "VALUES (?, ?, 1, 'logp', '0', ?, 1, 't', 't', 't', '{}', ?)");
  const auto empty = pbench::store::pack_document(nlohmann::json::object(), "{}");
  auto metric = db.prepare(
      "INSERT INTO metrics (result_id, name, value, unit, samples, labels) "
      "VALUES (?, ?, ?, 'B/s', 100, ?)");
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> value(1e6, 1e10);
  for (int r = 0; r < results; ++r) {
    const auto& point = points[r % points.size()];
    result.reset();
    result.bind(1, point.id).bind(2, "h" + std::to_string(r)).bind(3, point.partition);
    result.bind_blob(4, empty.packed).run();
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
      "nprocs, valid, started_at, ended_at, ingested_at, head, packed) "
      "VALUES (?, ?, 1, 'io', '0', ?, ?, 't', 't', 't', ?, ?)");
  auto metric = db.prepare(
      "INSERT INTO metrics (result_id, name, value, unit, samples, labels) "
      "VALUES (?, ?, ?, ?, 100, ?)");
  // Documents of the realistic size (the ingest stage's are ~4.5 kB): the query must not read
  // them, and large rows spread the results table over many pages as in a real store (the pad
  // in the head, which compression does not shrink).
  const std::string document = "{\"pad\":\"" + std::string(4500, 'x') + "\"}";
  const auto packed = pbench::store::pack_document(nlohmann::json::parse(document), document);
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
        .bind_blob(6, packed.packed)
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

/// Wall time of `pbench --db STORE ARGS...` (its output discarded); throws when it fails.
double time_pbench(const std::string& binary, const fs::path& store,
                   const std::vector<std::string>& args) {
  std::vector<std::string> all = {binary, "--db", store.string()};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  const auto start = Clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  const double elapsed = seconds_since(start);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  // check exits 10-12 for a regression, a figure not valid or missing: an answer, not a failure.
  if (code != 0 && !(args.front() == "check" && code >= 10 && code <= 12)) {
    std::string line;
    for (const auto& a : all) line += a + " ";
    throw std::runtime_error("failed (exit " + std::to_string(code) + "): " + line);
  }
  return elapsed;
}

/// The median of `runs` timings of one command.
double median_of(int runs, const std::function<double()>& once) {
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) t.push_back(once());
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/// "2016-11-27" + `days`, as a date (proleptic Gregorian, via the C library in UTC).
std::string night_date(int days) {
  std::tm tm{};
  tm.tm_year = 2016 - 1900;
  tm.tm_mon = 10;
  tm.tm_mday = 27 + days;
  tm.tm_hour = 12;
  const std::time_t t = timegm(&tm);
  std::tm out{};
  gmtime_r(&t, &out);
  char buffer[16];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d", &out);
  return buffer;
}

/// One night of the seed's sweep: a new run, and each point's document of run 1 with varied
/// values, dated that night (six nights in seven every result valid, as a healthy system's; the
/// seventh as the seed's quick settings left them), ingested as collect ingests them, then the
/// run's headline answered as collect answers it. Returns the documents stored.
int ingest_night(pbench::store::Store& store, pbench::ingest::Ingester& ingester,
                 const pbench::store::SweepRecord& sweep,
                 const std::vector<std::pair<std::int64_t, nlohmann::json>>& seeds, int night,
                 std::mt19937_64& rng) {
  const std::string date = night_date(night);
  store.start_run(sweep.id, date + "T01:00:00Z", "{}");
  int stored = 0;
  for (const auto& [point_id, seed] : seeds) {
    nlohmann::json doc = seed;
    vary(doc, rng);
    // The sweep's parameters stay as they were (io's T among them), only measured values vary.
    doc["parameters"] = seed["parameters"];
    for (std::size_t i = 0; i < doc["summary"].size(); ++i) {
      if (doc["summary"][i]["name"] == "schedule_time") doc["summary"][i] = seed["summary"][i];
    }
    doc["started_at"] = date + "T01:00:00.000Z";
    doc["ended_at"] = date + "T01:30:00.000Z";
    doc["seeds"]["bench_night"] = night;
    if (night % 7 != 0) doc["validity"] = {{"valid", true}, {"reasons", nlohmann::json::array()}};
    if (!ingester.ingest_text(doc.dump(), "night " + std::to_string(night), point_id).duplicate) {
      ++stored;
    }
  }
  store.answer_headlines(sweep.id);
  return stored;
}

/// Each point of `sweep_id` with its chosen result of run 1, the document the nights are made of.
std::vector<std::pair<std::int64_t, nlohmann::json>> seed_documents(pbench::store::Store& store,
                                                                    std::int64_t sweep_id) {
  std::vector<std::pair<std::int64_t, nlohmann::json>> seeds;
  auto documents = store.db().prepare(
      "SELECT rr.point_id, document(r.packed) FROM run_results rr CROSS JOIN results r "
      "WHERE rr.sweep_id = ?1 AND rr.run = 1 AND r.id = rr.result_id ORDER BY rr.point_id");
  documents.bind(1, sweep_id);
  while (documents.step()) {
    seeds.emplace_back(documents.int64(0), nlohmann::json::parse(documents.text(1)));
  }
  return seeds;
}

/// The commands that write, with their checks (issue 54): the bounded check before a write
/// and the whole quick_check it replaces (in this process), `collect` with nothing new (its
/// open and check), `sweep` of a new sweep (median of 5, each removed after), and `store
/// verify` once.
void writing_commands(const fs::path& store_path, const std::string& sweep,
                      const std::string& binary) {
  {
    pbench::store::Database db(store_path.string(), pbench::store::Database::Mode::read_write);
    const double bounded = median_of(5, [&] {
      const auto start = Clock::now();
      pbench::store::require_intact_for_writing(db, true);
      return seconds_since(start);
    });
    std::printf("%-58s %9.1f ms  < 1 s: %s\n", "the check before a write (bounded, this process)",
                bounded * 1e3, below(bounded * 1e3, 1000, "ms").c_str());
    const auto start = Clock::now();
    pbench::store::require_intact(db);
    std::printf("%-58s %9.1f ms  (what every write ran before)\n",
                "PRAGMA quick_check of the whole file (once)", seconds_since(start) * 1e3);
  }
  const double collect = median_of(5, [&] {
    return time_pbench(binary, store_path, {"collect", sweep});
  });
  std::printf("%-58s %9.1f ms  < 1 s: %s\n",
              ("collect " + sweep + " (nothing new: open, check)").c_str(), collect * 1e3,
              below(collect * 1e3, 1000, "ms").c_str());
  int probe = 0;
  const double planned = median_of(5, [&] {
    const std::string name = "probe-" + std::to_string(probe++);
    const double t = time_pbench(
        binary, store_path,
        {"sweep", name, "--workers", "logp", "--partitions", "2", "--queue-depths", "1"});
    time_pbench(binary, store_path, {"rm", name, "--yes"});
    return t;
  });
  std::printf("%-58s %9.1f ms  < 1 s: %s\n", "sweep probe (a new sweep: plan, check, store)",
              planned * 1e3, below(planned * 1e3, 1000, "ms").c_str());
  const double verify = time_pbench(binary, store_path, {"store", "verify"});
  std::printf("%-58s %9.1f s   (the whole check: no target)\n", "store verify (once)", verify);
}

/// The --history form (see the top of this file).
int history_stage(const fs::path& seed_path, const fs::path& store_path, int nights,
                  const std::string& binary) {
  using pbench::store::Store;
  if (!fs::exists(store_path)) {
    {
      auto seed = Store::open(seed_path.string(), Store::Access::read_only);
      seed.db().prepare("VACUUM INTO ?1").bind(1, store_path.string()).run();
    }
    auto store = Store::open(store_path.string(), Store::Access::existing);
    const auto sweeps = store.sweeps();
    if (sweeps.size() != 1) throw std::runtime_error("the seed store must hold one sweep");
    const auto sweep = sweeps.front();
    const auto seeds = seed_documents(store, sweep.id);
    std::printf("making %s: %d nights of sweep '%s' (%zu points with a result in run 1)\n",
                store_path.c_str(), nights, sweep.name.c_str(), seeds.size());
    pbench::ingest::Ingester ingester(store);
    std::mt19937_64 rng(20161127);
    const auto start = Clock::now();
    auto year = Clock::now();
    long stored = 0, stored_this_year = 0;
    for (int night = 1; night < nights; ++night) {
      stored_this_year += ingest_night(store, ingester, sweep, seeds, night, rng);
      if (night % 365 == 0 || night + 1 == nights) {
        std::printf("  night %5d: %ld documents, %.0f docs/s over the last year's nights "
                    "(with each night's headline answered)\n",
                    night + 1, stored + stored_this_year,
                    stored_this_year / seconds_since(year));
        std::fflush(stdout);
        stored += stored_this_year;
        stored_this_year = 0;
        year = Clock::now();
      }
    }
    std::printf("  made in %.1f s\n", seconds_since(start));
    store.db().exec("PRAGMA wal_checkpoint(TRUNCATE)");
    store.db().exec("ANALYZE");
  }
  auto store = Store::open(store_path.string(), Store::Access::existing);
  const auto sweep = store.sweeps().front();
  auto count = [&](const char* sql) {
    auto s = store.db().prepare(sql);
    s.step();
    return s.int64(0);
  };
  const auto runs = count("SELECT count(*) FROM runs");
  std::printf("store %s: %.0f MB on disk (%.0f MB of it the result documents, compressed), %lld runs, "
              "%lld results, %lld metric rows, %lld kept headline rows\n",
              store_path.c_str(), fs::file_size(store_path) / 1e6,
              count("SELECT sum(length(packed)) FROM results") / 1e6,
              static_cast<long long>(runs), static_cast<long long>(count("SELECT count(*) FROM results")),
              static_cast<long long>(count("SELECT count(*) FROM metrics")),
              static_cast<long long>(count("SELECT count(*) FROM headline_answers")));
  const fs::path reference = store_path.string() + ".reference.toml";
  std::printf("%-58s %12s  %s\n", "command (median of 5, the pbench binary, start-up included)",
              "time", "target");
  // targeted: one of the commands, held to 200 ms (a user at a terminal); the others
  // are printed for comparison.
  auto command = [&](const std::string& what, const std::vector<std::string>& args,
                     bool targeted = true) {
    const double t = median_of(5, [&] { return time_pbench(binary, store_path, args); });
    std::printf("%-58s %9.1f ms  %s\n", what.c_str(), t * 1e3,
                targeted ? ("< 200 ms: " + below(t * 1e3, 200, "ms")).c_str()
                         : "(no target: see bench/README.md)");
  };
  command("query system --sweep " + sweep.name + " (the latest run)",
          {"query", "system", "--sweep", sweep.name});
  // One figure's history: b_eff_io when the sweep has it, else its first headline figure.
  std::string figure = "b_eff_io";
  {
    auto figures = store.db().prepare(
        "SELECT figure FROM headline_answers WHERE sweep_id = ?1 AND value IS NOT NULL "
        "ORDER BY figure <> 'b_eff_io', group_order LIMIT 1");
    figures.bind(1, sweep.id);
    if (figures.step()) figure = figures.text(0);
  }
  command("history " + sweep.name + " --metric " + figure + " (every run)",
          {"history", sweep.name, "--metric", figure});
  command("history " + sweep.name + " (every figure, every run)", {"history", sweep.name}, false);
  command("history " + sweep.name + " --stats (every figure)", {"history", sweep.name, "--stats"},
          false);
  command("reference " + sweep.name + " --runs 30 --tolerance auto",
          {"reference", sweep.name, "--runs", "30", "--tolerance", "auto", "-o",
           reference.string()});
  // The reference's 30 runs include the latest: scoring it is what this times, so it is allowed.
  command("check " + sweep.name + " --reference (the latest run)",
          {"check", sweep.name, "--reference", reference.string(), "--allow-reference-run"});
  command("export " + sweep.name + " (openmetrics, the latest run)", {"export", sweep.name});
  command("query io --sweep " + sweep.name + " (the latest run)",
          {"query", "io", "--sweep", sweep.name}, false);
  writing_commands(store_path, sweep.name, binary);
  // One more night, as collect stores it: its documents and its headline, timed.
  {
    const auto seeds = seed_documents(store, sweep.id);
    pbench::ingest::Ingester ingester(store);
    std::mt19937_64 rng(static_cast<std::uint64_t>(runs));
    const auto start = Clock::now();
    const int stored = ingest_night(store, ingester, sweep, seeds, static_cast<int>(runs), rng);
    const double t = seconds_since(start);
    std::printf("%-58s %9.0f docs/s  >= 2000 docs/s: %s\n",
                ("ingest one more night (" + std::to_string(stored) +
                 " documents, its headline answered)").c_str(),
                stored / t, at_least(stored / t, 2000, "docs/s").c_str());
  }
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
  if (argc > 3 && std::string(argv[1]) == "--history") {
    return history_stage(argv[2], argv[3], argc > 4 ? std::stoi(argv[4]) : 3653, PBENCH_BINARY);
  }
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
