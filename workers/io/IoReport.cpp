#include "io/IoReport.hpp"

#include <array>
#include <cstdio>
#include <map>
#include <set>

#include "common/MethodRules.hpp"
#include "common/MpiLibrary.hpp"
#include "common/TextFormat.hpp"
#include "common/Units.hpp"
#include "io/HintsInEffect.hpp"
#include "io/TimeGuard.hpp"

namespace pbench::io {

using worker::fixed;
using worker::pad_left;
using worker::pad_right;

namespace {

using nlohmann::json;

json optional_value(const std::optional<double>& v) {
  return v ? json(*v) : json();
}

std::string bytes_text(double bytes) {
  if (bytes >= 1e9) return fixed(bytes / 1e9, 2) + " GB";
  if (bytes >= 1e6) return fixed(bytes / 1e6, 2) + " MB";
  return fixed(bytes, 0) + " B";
}

// Where an overrunning run's time went, from its account (TimePlan.hpp): the parts the guard
// cannot cut, named since on a file system that discards freed blocks deletion alone can take
// seconds per GB.
std::string uncut_parts(const IoMeasurements& m) {
  const TimeAccount& a = m.account;
  return " (account: patterns " + fixed(a.seconds(TimePart::patterns), 1) + " s, opens " +
         fixed(a.seconds(TimePart::opens), 1) + " s, closes " +
         fixed(a.seconds(TimePart::closes), 1) + " s, deletion " +
         fixed(a.seconds(TimePart::deletion) + a.seconds(TimePart::deletion_probe), 1) +
         " s, the rest " +
         fixed(a.seconds(TimePart::setup) + a.seconds(TimePart::bookkeeping) +
                   a.seconds(TimePart::removal),
               1) +
         " s)";
}

const char* access_of(int index) {
  return index == 0 ? "write" : index == 1 ? "rewrite" : "read";
}

// What follows from a cut row for the rows after it.
std::string after_cut(const PatternMeasurement& p) {
  const std::string count = std::to_string(p.repetitions);
  if (p.access == Access::write) {
    return "the segment is partly filled, rewrite and read replay the " + count;
  }
  if (p.access == Access::rewrite) {
    return "the rest of the row keeps the write's data; the read replays the " + count;
  }
  return "the rest of the row is not read";
}

// The test call delays as given: "read:2=0.05,write:0=0.1" (empty when none).
std::string call_delays_text(const std::map<std::pair<int, int>, double>& delays) {
  std::string out;
  for (const auto& [key, seconds] : delays) {
    out += (out.empty() ? "" : ",") + std::string(access_of(key.first)) + ":" +
           std::to_string(key.second) + "=" + units::plain_number(seconds);
  }
  return out;
}

}  // namespace

std::string megabytes_per_second(double bytes_per_second) {
  return fixed(bytes_per_second / 1e6, 3) + " MB/s";
}

IoReport::IoReport(IoMeasurements measurements)
    : m_(std::move(measurements)),
      figures_(IoFigures::reduce(m_.types, m_.partitions, m_.rewrite_all)) {
  judge_run();
  judge_faults();
  judge_time();
  judge_volume();
}

void IoReport::judge_run() {
  if (m_.failure) {
    reasons_.push_back("partial result: the run stopped at " + m_.stopped_at + ": " + *m_.failure +
                       "; the figures whose measurements are missing are null");
  }
  for (auto& reason : physical_limits(m_, figures_).reasons())
    reasons_.push_back(std::move(reason));
  // The rule's one home (ingest holds a document's figures to it too).
  if (auto reason = worker::MethodRules::io(m_.schedule.partition_time(), m_.schedule.partitions)) {
    reasons_.push_back(std::move(*reason));
  }
  std::set<int> shared_ok;
  for (const auto& t : m_.types) {
    if (t.type == 1 && t.access == Access::read && t.complete) shared_ok.insert(t.partition);
  }
  for (int n : m_.partitions) {
    if (!shared_ok.count(n)) {
      reasons_.push_back("partition " + std::to_string(n) +
                         ": the shared file pointer (type 1) was not used through to the read");
    }
  }
}

void IoReport::judge_faults() {
  std::int64_t errors = 0;
  std::size_t bad_patterns = 0;
  std::int64_t failed_calls = 0;
  std::vector<std::string> failed_rows;
  for (const auto& p : m_.patterns) {
    const std::int64_t wrong = p.errors - p.failed_calls;
    errors += wrong;
    bad_patterns += wrong > 0 ? 1 : 0;
    if (p.failed_calls > 0) {
      failed_calls += p.failed_calls;
      failed_rows.push_back("partition " + std::to_string(p.partition) + " " +
                            access_name(p.access) + " type " + std::to_string(p.type) +
                            " pattern " + std::to_string(p.number));
    }
  }
  if (failed_calls > 0) {
    std::string rows;
    for (const auto& r : failed_rows) rows += (rows.empty() ? "" : ", ") + r;
    reasons_.push_back("failed calls: " + std::to_string(failed_calls) + " I/O calls failed (" +
                       rows +
                       "); their bytes and repetitions are not counted, and each "
                       "is in its row's errors");
  }
  if (errors > 0) {
    reasons_.push_back("read check: " + std::to_string(errors) + " chunks in " +
                       std::to_string(bad_patterns) + " patterns did not carry the stamp written");
  }
  if (m_.corruption_injected) {
    reasons_.push_back("test fault --inject-corruption overwrote the first stamp of every file");
  }
  if (m_.collective_write_delay > 0) {
    reasons_.push_back("test fault --test-collective-write-delay slept " +
                       fixed(m_.collective_write_delay, 3) +
                       " s before every collective write call of type 4");
  }
  for (const auto& [key, seconds] : m_.call_delays) {
    reasons_.push_back("test fault --test-call-delay slept " + fixed(seconds, 3) +
                       " s before every " + access_of(key.first) + " call of type " +
                       std::to_string(key.second));
  }
  if (m_.deletion_delay > 0) {
    reasons_.push_back("test fault --test-deletion-delay slept " + fixed(m_.deletion_delay, 3) +
                       " s per GB in every deletion");
  }
}

void IoReport::judge_time() {
  for (const auto& p : m_.patterns) {
    if (!p.cut) continue;
    reasons_.push_back(
        "time guard: partition " + std::to_string(p.partition) + ", " + access_name(p.access) +
        ", type " + std::to_string(p.type) + ", pattern " + std::to_string(p.number) +
        " (l = " + std::to_string(p.disk_chunk) + " B): stopped after " +
        std::to_string(p.repetitions) + " of " + std::to_string(p.planned) +
        " planned repetitions, having taken " + fixed(p.time.max, 3) + " s, " +
        (p.planned_time > 0 ? fixed(p.time.max / p.planned_time, 1) : std::string("-")) +
        " x its share " + fixed(p.planned_time, 3) + " s (T_pattern = " + fixed(p.pattern_time, 3) +
        " s; guard factor " + (m_.guard_factor ? fixed(*m_.guard_factor, 2) : std::string("-")) +
        "); " + after_cut(p));
  }
  // Whatever the guard did, the run is held against T (TimeGuard.hpp).
  if (m_.elapsed > elapsed_limit(m_.schedule_time)) {
    reasons_.push_back("elapsed " + fixed(m_.elapsed, 1) + " s > " +
                       (m_.schedule_time >= 60 ? "1.10 T" : "1.15 T + 3 s") + " = " +
                       fixed(elapsed_limit(m_.schedule_time), 1) +
                       " s (T = " + fixed(m_.schedule_time, 1) +
                       " s): the run overran its scheduled time" + uncut_parts(m_));
  }
  // The plan's shrinking is said, not hidden: rows whose share fell below T_pattern.
  std::size_t shrunk = 0;
  double least = 1;
  for (const auto& p : m_.patterns) {
    if (p.pattern_time <= 0 || p.planned_time >= p.pattern_time * (1 - 1e-9)) continue;
    ++shrunk;
    least = std::min(least, p.planned_time / p.pattern_time);
  }
  if (shrunk > 0) {
    warnings_.push_back(
        "time plan: " + std::to_string(shrunk) +
        " rows ran with a share below rev 2.1's T_pattern (down to " + fixed(100 * least, 0) +
        "% of it), so that the opens, closes, syncs and deletion fit T" + uncut_parts(m_));
  }
}

void IoReport::judge_volume() {
  const double needed = kCacheFactor * static_cast<double>(m_.cache_bytes);
  for (const auto& f : figures_.partitions) {
    std::string short_of;
    for (Access a : kAccesses) {
      auto it = f.access_bytes.find(a);
      const double moved = it == f.access_bytes.end() ? 0.0 : static_cast<double>(it->second);
      if (moved < needed) {
        short_of +=
            std::string(short_of.empty() ? "" : ", ") + access_name(a) + " " + bytes_text(moved);
      }
    }
    if (!short_of.empty()) {
      reasons_.push_back("cache check: partition " + std::to_string(f.partition) + " moved " +
                         short_of + ", less than 20 x the cache of " +
                         bytes_text(static_cast<double>(m_.cache_bytes)) + " (" + m_.cache_source +
                         "): the data may not have reached the disk");
    }
  }
  if (!m_.probe_problem.empty()) {
    warnings_.push_back("deletion probe: " + m_.probe_problem +
                        "; the plan learns the deletion rate from the run's own deletions");
  }
  if (m_.chunks.capped) {
    warnings_.push_back("M_PART capped at 1 GB; memory per process / 128 gives " +
                        std::to_string(m_.chunks.m_part_from_memory) + " B");
  }
  // The termination rule keeps the time-driven patterns (types 0-2 write) within their
  // budget; the rest (types 3-4, rewrite, read) take what their fixed counts take.
  for (int n : m_.partitions) {
    const auto [budget, used] = time_driven(n);
    if (m_.failure || m_.deadline_stop || m_.schedule.partition_time() < 60 || budget <= 0) {
      continue;
    }
    if (used < 0.9 * budget || used > 1.1 * budget) {
      warnings_.push_back("partition " + std::to_string(n) + ": the time-driven patterns took " +
                          fixed(used, 1) + " s of their budget " + fixed(budget, 1) +
                          " s (more than 10% off)");
    }
  }
}

std::int64_t IoReport::cut_rows() const {
  std::int64_t n = 0;
  for (const auto& p : m_.patterns) n += p.cut ? 1 : 0;
  return n;
}

std::pair<double, double> IoReport::time_driven(int partition) const {
  double budget = 0;
  double used = 0;
  for (const auto& p : m_.patterns) {
    if (p.partition != partition || p.drive != Drive::time) continue;
    budget += p.pattern_time;
    used += p.time.max;
  }
  return {budget, used};
}

void IoReport::print_header(std::ostream& out, int nprocs, const std::vector<int>& partitions,
                            const Schedule& schedule, const char* termination,
                            const std::optional<double>& guard_factor, std::int64_t buffer_offset) {
  std::string parts;
  for (int p : partitions) parts += (parts.empty() ? "" : ",") + std::to_string(p);
  out << "pbench-io: b_eff_io (Rabenseifner & Koniges) on " << nprocs << " processes; partitions "
      << parts << "; T = " << fixed(schedule.schedule_time, 1)
      << " s for all partitions, Tn = " << fixed(schedule.partition_time(), 1)
      << " s each, T_pat = Tn * U / " << schedule.time_units_sum()
      << " (as b_eff_io rev 2.1); termination " << termination << "; "
      << (guard_factor ? "time guard at " + fixed(*guard_factor, 2) +
                             " x share (rows with a planned count), shares planned to fit T"
                       : std::string("unguarded (as b_eff_io rev 2.1)"))
      << "; I/O buffer " << buffer_offset << " B past a page boundary"
      << (buffer_offset == kRev21BufferOffset ? " (as b_eff_io rev 2.1's malloc)" : "") << "\n"
      << pad_left("part", 5) << pad_left("access", 8) << pad_left("type", 5) << pad_left("pat", 4)
      << pad_left("T_pat[s]", 10) << pad_left("l[B]", 11) << pad_left("L[B]", 11)
      << pad_left("reps", 8) << pad_left("bytes[B]", 13) << pad_left("time[s]", 10)
      << pad_left("MB/s", 11) << pad_left("err", 5) << "\n";
}

void IoReport::print_pattern(std::ostream& out, const PatternMeasurement& m) {
  out << pad_left(std::to_string(m.partition), 5) << pad_left(access_name(m.access), 8)
      << pad_left(std::to_string(m.type), 5) << pad_left(std::to_string(m.number), 4)
      << pad_left(fixed(m.pattern_time, 3), 10) << pad_left(std::to_string(m.disk_chunk), 11)
      << pad_left(std::to_string(m.memory_chunk), 11) << pad_left(std::to_string(m.repetitions), 8)
      << pad_left(std::to_string(m.bytes), 13) << pad_left(fixed(m.time.max, 4), 10)
      << pad_left(fixed(m.bandwidth() / 1e6, 2), 11) << pad_left(std::to_string(m.errors), 5)
      << (m.cut ? "  cut by the time guard after " + std::to_string(m.repetitions) + " of " +
                      std::to_string(m.planned)
                : std::string())
      << "\n"
      << std::flush;
}

void IoReport::write(worker::ResultDocument& result) const {
  for (const auto& r : reasons_) result.invalidate(r);
  for (const auto& w : warnings_) result.add_warning(w);
  // A hint asked for and not in effect is said, never assumed (OMPIO ignores ROMIO's hints).
  const HintCheck hint_check =
      check_hints_in_effect(m_.files, worker::running_mpi_library().io_layer);
  for (const auto& w : hint_check.warnings) result.add_warning(w);
  if (m_.read_back) m_.read_back->report(result);
  write_rows(result);
  write_partitions(result);
  write_totals(result, hint_check);
  write_hints(result);
  write_run(result);
}

void IoReport::write_rows(worker::ResultDocument& result) const {
  auto& patterns = result.add_table("patterns", {{"partition", "processes"},
                                                 {"access", ""},
                                                 {"type", ""},
                                                 {"pattern", ""},
                                                 {"disk_chunk", "B"},
                                                 {"memory_chunk", "B"},
                                                 {"time_units", "count"},
                                                 {"pattern_time", "s"},
                                                 {"planned_time", "s"},
                                                 {"held_back", "s"},
                                                 {"drive", ""},
                                                 {"repetitions", "count"},
                                                 {"planned_repetitions", "count"},
                                                 {"cut", ""},
                                                 {"bytes", "B"},
                                                 {"time", "s"},
                                                 {"time_min", "s"},
                                                 {"time_mean", "s"},
                                                 {"time_stddev", "s"},
                                                 {"sync_time", "s"},
                                                 {"bandwidth", "B/s"},
                                                 {"errors", "count"}});
  for (const auto& p : m_.patterns) {
    patterns.add_row({p.partition,
                      access_name(p.access),
                      p.type,
                      p.number,
                      p.disk_chunk,
                      p.memory_chunk,
                      p.time_units,
                      p.pattern_time,
                      p.planned_time,
                      p.held_back,
                      drive_name(p.drive),
                      p.repetitions,
                      p.drive == Drive::time ? json() : json(p.planned),
                      p.cut,
                      p.bytes,
                      p.time.max,
                      p.time.min,
                      p.time.mean,
                      p.time.stddev,
                      p.sync_time,
                      p.bandwidth(),
                      p.errors});
  }
  auto& types = result.add_table("types", {{"partition", "processes"},
                                           {"access", ""},
                                           {"type", ""},
                                           {"bytes", "B"},
                                           {"open_time", "s"},
                                           {"close_time", "s"},
                                           {"delete_time", "s"},
                                           {"total_time", "s"},
                                           {"bandwidth", "B/s"},
                                           {"errors", "count"},
                                           {"complete", ""}});
  for (const auto& t : m_.types) {
    types.add_row({t.partition, access_name(t.access), t.type, t.bytes, t.open_time, t.close_time,
                   t.delete_time, t.total_time, t.complete ? json(t.bandwidth()) : json(), t.errors,
                   t.complete});
  }
  // Where the run's time went, on rank 0's clock: the parts add up to the run's elapsed time.
  auto& account =
      result.add_table("time_account", {{"part", ""}, {"time", "s"}, {"count", "count"}});
  for (TimePart part : kTimePartList) {
    account.add_row({time_part_name(part), m_.account.seconds(part), m_.account.count(part)});
  }
}

void IoReport::write_partitions(worker::ResultDocument& result) const {
  auto& accesses = result.add_table("accesses", {{"partition", "processes"},
                                                 {"access", ""},
                                                 {"bandwidth", "B/s"},
                                                 {"bytes", "B"},
                                                 {"cache_bytes", "B"},
                                                 {"bytes_over_cache", "ratio"}});
  auto& partitions = result.add_table("partitions", {{"partition", "processes"},
                                                     {"schedule_time", "s"},
                                                     {"partition_time", "s"},
                                                     {"elapsed", "s"},
                                                     {"write_elapsed", "s"},
                                                     {"time_driven_budget", "s"},
                                                     {"time_driven_time", "s"},
                                                     {"segment", "B"},
                                                     {"segment_fill", "B"},
                                                     {"write_rewrite", "B/s"},
                                                     {"b_eff_io", "B/s"},
                                                     {"b_eff_io_paper", "B/s"}});
  for (const auto& f : figures_.partitions) {
    const json label_n = {{"partition", f.partition}};
    double elapsed = 0;
    double write_elapsed = 0;
    const auto [budget, used] = time_driven(f.partition);
    json segment, fill;
    for (const auto& t : m_.timings) {
      if (t.partition != f.partition) continue;
      elapsed = t.elapsed;
      write_elapsed = t.write_elapsed;
      if (t.segment) {
        segment = t.segment->segment;
        fill = t.segment->fill;
      }
    }
    partitions.add_row({f.partition, m_.schedule_time, m_.schedule.partition_time(), elapsed,
                        write_elapsed, budget, used, segment, fill, optional_value(f.write_rewrite),
                        optional_value(f.b_eff_io), optional_value(f.b_eff_io_paper)});
    for (Access a : kAccesses) {
      auto bw = f.access_bandwidth.find(a);
      auto bytes = f.access_bytes.find(a);
      const std::int64_t moved = bytes == f.access_bytes.end() ? 0 : bytes->second;
      accesses.add_row({f.partition, access_name(a),
                        bw == f.access_bandwidth.end() ? json() : json(bw->second), moved,
                        m_.cache_bytes,
                        static_cast<double>(moved) / static_cast<double>(m_.cache_bytes)});
      const json labels = {{"partition", f.partition}, {"access", access_name(a)}};
      result.add_metric(
          "access_bandwidth",
          bw == f.access_bandwidth.end() ? std::nullopt : std::optional<double>(bw->second), "B/s",
          types_of(a, m_.rewrite_all).size(), labels);
      result.add_metric("access_bytes", static_cast<double>(moved), "B", 1, labels);
      for (int type : types_of(a, m_.rewrite_all)) {
        auto it = f.type_bandwidth.find({a, type});
        result.add_metric(
            "type_bandwidth",
            it == f.type_bandwidth.end() ? std::nullopt : std::optional<double>(it->second), "B/s",
            1, {{"partition", f.partition}, {"access", access_name(a)}, {"type", type}});
      }
    }
    result.add_metric("b_eff_io", f.b_eff_io, "B/s", 11, label_n);
    result.add_metric("b_eff_io_paper", f.b_eff_io_paper, "B/s", 3, label_n);
    result.add_metric("schedule_time", m_.schedule_time, "s", 1, label_n);
    result.add_metric("partition_time", m_.schedule.partition_time(), "s", 1, label_n);
    result.add_metric("elapsed", elapsed, "s", 1, label_n);
  }
}

void IoReport::write_totals(worker::ResultDocument& result, const HintCheck& hint_check) const {
  std::size_t errors = 0;
  for (const auto& p : m_.patterns) errors += static_cast<std::size_t>(p.errors);
  result.add_metric(
      "b_eff_io_system", figures_.system, "B/s", figures_.partitions.size(),
      figures_.system ? json{{"partition", figures_.system_partition}} : json::object());
  result.add_metric("b_eff_io_paper_system", figures_.system_paper, "B/s",
                    figures_.partitions.size(),
                    figures_.system_paper ? json{{"partition", figures_.system_paper_partition}}
                                          : json::object());
  result.add_metric("read_errors", static_cast<double>(errors), "count", m_.patterns.size());
  result.add_metric("run_elapsed", m_.elapsed, "s", 1, json::object());
  result.add_metric("cut_rows", static_cast<double>(cut_rows()), "count", m_.patterns.size(),
                    json::object());
  result.add_metric("hints_not_in_effect", static_cast<double>(hint_check.not_in_effect), "count",
                    m_.files.size(), json::object());
}

void IoReport::write_hints(worker::ResultDocument& result) const {
  auto& given =
      result.add_table("hints", {{"key", ""}, {"value", ""}, {"type", ""}, {"source", ""}});
  for (const auto& h : m_.hints) {
    given.add_row({h.key, h.value, h.type ? json(*h.type) : json("all"), h.source});
  }
  auto& hints = result.add_table("file_hints", {{"partition", "processes"},
                                                {"access", ""},
                                                {"type", ""},
                                                {"file", ""},
                                                {"key", ""},
                                                {"value", ""},
                                                {"given", ""}});
  for (const auto& f : m_.files) {
    std::map<std::string, std::string> given(f.given.begin(), f.given.end());
    std::set<std::string> seen;
    for (const auto& [key, value] : f.effective) {
      auto g = given.find(key);
      hints.add_row({f.partition, access_name(f.access), f.type, f.file, key, value,
                     g == given.end() ? json() : json(g->second)});
      seen.insert(key);
    }
    for (const auto& [key, value] : f.given) {
      if (!seen.count(key)) {
        hints.add_row({f.partition, access_name(f.access), f.type, f.file, key, json(), value});
      }
    }
  }
}

void IoReport::write_run(worker::ResultDocument& result) const {
  auto& chunks = result.add_table("run", {{"memory_per_process", "B"},
                                          {"memory_source", ""},
                                          {"m_part", "B"},
                                          {"cache_bytes", "B"},
                                          {"cache_source", ""},
                                          {"termination", ""},
                                          {"rewrite_all", ""},
                                          {"time_units_sum", "count"},
                                          {"unit_time", "s"},
                                          {"unique_open", ""},
                                          {"guard_factor", "ratio"},
                                          {"cut_rows", "count"},
                                          {"test_collective_write_delay", "s"},
                                          {"test_call_delays", ""},
                                          {"test_deletion_delay", "s/GB"},
                                          {"deletion_probe_bytes", "B"},
                                          {"deletion_probe_time", "s"},
                                          {"sync_time_per_gb", "s/GB"},
                                          {"deletion_time_per_gb", "s/GB"},
                                          {"buffer_offset", "B"},
                                          {"schedule_time", "s"},
                                          {"elapsed", "s"},
                                          {"elapsed_limit", "s"},
                                          {"b_eff_io_definition", ""},
                                          {"directory", ""},
                                          {"kept", ""},
                                          {"complete", ""}});
  chunks.add_row({m_.chunks.memory_per_process,
                  m_.memory_source,
                  m_.chunks.m_part,
                  m_.cache_bytes,
                  m_.cache_source,
                  termination_name(m_.termination),
                  m_.rewrite_all,
                  m_.schedule.time_units_sum(),
                  m_.schedule.unit_time(),
                  m_.unique_open,
                  m_.guard_factor ? json(*m_.guard_factor) : json(),
                  cut_rows(),
                  m_.collective_write_delay,
                  call_delays_text(m_.call_delays),
                  m_.deletion_delay,
                  m_.probe_bytes,
                  m_.probe_time,
                  m_.sync_per_byte ? json(*m_.sync_per_byte * 1e9) : json(),
                  m_.deletion_per_byte ? json(*m_.deletion_per_byte * 1e9) : json(),
                  m_.buffer_offset,
                  m_.schedule_time,
                  m_.elapsed,
                  elapsed_limit(m_.schedule_time),
                  kDefinition,
                  m_.directory,
                  m_.kept,
                  !m_.failure.has_value() && !m_.deadline_stop});

  // Where pbench-io deliberately differs from the reference code, said in every result.
  auto& differences = result.add_table("differences_from_rev_2_1",
                                       {{"aspect", ""}, {"pbench", ""}, {"rev_2_1", ""}});
  for (const auto& d : deliberate_differences(m_.guard_factor, m_.collective_write_delay,
                                              m_.buffer_offset, m_.chunks.m_part)) {
    differences.add_row({d[0], d[1], d[2]});
  }
}

void IoReport::print(std::ostream& out) const {
  for (const auto& f : figures_.partitions) {
    out << "\nSummary of partition " << f.partition << " (MB/s = 10^6 B/s; cells: bytes / time "
        << "of the patterns with that l; 'type' row: bytes / (open + patterns + close))\n";
    for (Access a : kAccesses) {
      // Rows by chunk size l, columns by pattern type.
      std::map<std::int64_t, std::map<int, std::pair<double, double>>> cells;
      std::set<int> present;
      for (const auto& p : m_.patterns) {
        if (p.partition != f.partition || p.access != a) continue;
        auto& cell = cells[p.disk_chunk][p.type];
        cell.first += static_cast<double>(p.bytes);
        cell.second += p.time.max;
        present.insert(p.type);
      }
      if (present.empty()) continue;
      out << pad_left(access_name(a), 8) << pad_left("l", 16);
      for (int type : present) out << pad_left("type " + std::to_string(type), 12);
      out << "\n";
      for (const auto& [l, by_type] : cells) {
        std::string label = l == m_.chunks.m_part ? "M_PART" : PatternTable::chunk_label(l);
        bool fill_only = true;
        for (const auto& p : m_.patterns) {
          if (p.partition == f.partition && p.access == a && p.disk_chunk == l) {
            fill_only = fill_only && p.number >= 25 && (p.number == 33 || p.number == 42);
          }
        }
        if (fill_only) label = "fill " + PatternTable::chunk_label(l);
        out << pad_left("", 8) << pad_left(label, 16);
        for (int type : present) {
          auto it = by_type.find(type);
          out << pad_left(it == by_type.end() || it->second.second <= 0
                              ? "-"
                              : fixed(it->second.first / it->second.second / 1e6, 2),
                          12);
        }
        out << "\n";
      }
      out << pad_left("", 8) << pad_left("type", 16);
      for (int type : present) {
        auto it = f.type_bandwidth.find({a, type});
        out << pad_left(it == f.type_bandwidth.end() ? "-" : fixed(it->second / 1e6, 2), 12);
      }
      out << "\n";
      auto bw = f.access_bandwidth.find(a);
      out << pad_left("", 8) << "  " << access_name(a) << " (type 0 counted twice): "
          << (bw == f.access_bandwidth.end() ? "not measured" : megabytes_per_second(bw->second))
          << "\n";
    }
    out << "partition " << f.partition
        << ": b_eff_io = " << (f.b_eff_io ? megabytes_per_second(*f.b_eff_io) : "not measured")
        << " (sqrt(WR*R), WR = "
        << (f.write_rewrite ? megabytes_per_second(*f.write_rewrite) : "not measured")
        << "); paper 0.25 write + 0.25 rewrite + 0.5 read = "
        << (f.b_eff_io_paper ? megabytes_per_second(*f.b_eff_io_paper) : "not measured") << "\n";
  }
  out << "\n";
  for (const auto& r : reasons_) out << "not official: " << r << "\n";
  for (const auto& w : warnings_) out << "warning: " << w << "\n";
  out << "b_eff_io = "
      << (figures_.system ? megabytes_per_second(*figures_.system) : "not measured");
  if (figures_.system) {
    out << " (maximum over partitions: partition " << figures_.system_partition << ")";
  }
  out << "; paper's arithmetic b_eff_io "
      << (figures_.system_paper ? megabytes_per_second(*figures_.system_paper) + " (partition " +
                                      std::to_string(figures_.system_paper_partition) + ")"
                                : "-")
      << "; T = " << fixed(m_.schedule_time, 1)
      << " s, Tn = " << fixed(m_.schedule.partition_time(), 1)
      << " s, elapsed = " << fixed(m_.elapsed, 1) << " s; "
      << (reasons_.empty() ? "valid" : "not valid") << "\n";
}

}  // namespace pbench::io
