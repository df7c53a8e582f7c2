#include "sweepdir/SweepRecordFile.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ingest/JsonSchema.hpp"
#include "util/Error.hpp"
#include "util/TextSafety.hpp"

namespace pbench::run {
namespace fs = std::filesystem;

namespace {
constexpr int kRecordVersion = 1;
}  // namespace

std::string sweep_record_path(const std::string& directory) {
  return (fs::path(directory) / "sweep.json").string();
}

void write_sweep_record(const store::SweepRecord& sweep,
                        const std::vector<store::RunRecord>& runs) {
  nlohmann::json run_list = nlohmann::json::array();
  for (const auto& run : runs) {
    auto envelope = nlohmann::json::parse(run.envelope_json, nullptr, false);
    if (envelope.is_discarded()) envelope = run.envelope_json;
    run_list.push_back(
        {{"run", run.run_no}, {"started_at", run.started_at}, {"envelope", envelope}});
  }
  const nlohmann::json record = {{"sweep_record_version", kRecordVersion},
                                 {"name", sweep.name},
                                 {"scheduler", sweep.scheduler},
                                 {"created_at", sweep.created_at},
                                 {"spec", nlohmann::json::parse(sweep.spec_json)},
                                 {"runs", run_list}};
  const std::string path = sweep_record_path(sweep.directory);
  const std::string temporary = path + ".tmp";
  std::error_code ec;
  fs::create_directories(sweep.directory, ec);
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << record.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    if (!out) throw UsageError("cannot write the sweep's record '" + path + "'");
  }
  fs::rename(temporary, path, ec);
  if (ec) throw UsageError("cannot write the sweep's record '" + path + "': " + ec.message());
}

std::optional<SweepFileRecord> read_sweep_record(const std::string& directory) {
  const std::string path = sweep_record_path(directory);
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  const auto record = nlohmann::json::parse(text.str(), nullptr, false);
  const auto not_a_record = [&](const std::string& why) {
    return UsageError("'" + path + "' is not a pbench sweep record (version " +
                      std::to_string(kRecordVersion) + "): " + why);
  };
  if (record.is_discarded()) throw not_a_record("not JSON");
  // schema/sweep.schema.json: every problem named, not only the first.
  const auto problems = ingest::sweep_schema().problems(record);
  if (!problems.empty()) {
    std::string why;
    for (const auto& p : problems) why += (why.empty() ? "" : "; ") + printable_utf8(p);
    throw not_a_record(why);
  }
  SweepFileRecord out;
  out.sweep.name = record["name"].get<std::string>();
  out.sweep.spec_json = record["spec"].dump();
  out.sweep.scheduler = record["scheduler"].get<std::string>();
  out.sweep.directory = directory;
  out.sweep.created_at = record["created_at"].get<std::string>();
  if (record.contains("runs") && record["runs"].is_array()) {
    for (const auto& run : record["runs"]) {
      store::RunRecord r;
      r.run_no = run["run"].get<int>();
      r.started_at = run["started_at"].get<std::string>();
      const auto& envelope = run.contains("envelope") ? run["envelope"] : nlohmann::json();
      r.envelope_json = envelope.is_string()   ? envelope.get<std::string>()
                        : envelope.is_object() ? envelope.dump()
                                               : "{}";
      out.runs.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace pbench::run
