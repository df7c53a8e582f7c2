#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/Commands.hpp"
#include "ingest/StoreVerifier.hpp"
#include "rebuild/StoreRebuild.hpp"
#include "store/Store.hpp"
#include "store/StoreMerge.hpp"
#include "util/Error.hpp"

namespace pbench::cli {

namespace {

/// The exit status of `pbench store verify` that found the store damaged (and of any command
/// that finds it so: main's StoreDamagedError).
constexpr int kDamagedStore = 7;

struct VerifyOptions {
  std::string format = "table";
};

struct RebuildOptions {
  std::string output;
};

struct MergeOptions {
  std::vector<std::string> from;
  store::MergeOptions merge;
};

void print_table(const ingest::VerifyReport& report) {
  for (const auto& problem : report.problems) std::cout << problem.message << "\n";
  for (const auto& line : report.missing_on_disk) std::cout << line << "\n";
  const std::string checked = std::to_string(report.results) + " results and their " +
                              std::to_string(report.metric_rows) + " metric rows";
  const std::string disk =
      std::to_string(report.on_disk) + " documents compared with the runs directory" +
      (report.missing_on_disk.empty()
           ? std::string()
           : ", " + std::to_string(report.missing_on_disk.size()) + " not there");
  if (!report.damaged()) {
    std::cout << "store '" << report.path << "' verified: integrity_check ok; " << checked
              << " match their documents and SHA-256; " << disk << "\n";
    return;
  }
  const bool only_disk = std::all_of(report.problems.begin(), report.problems.end(),
                                     [](const auto& p) { return p.kind == "runs"; });
  std::cout << "store '" << report.path << "' "
            << (only_disk ? "and its runs directory differ: " : "is damaged: ")
            << report.problems.size() << (report.problems.size() == 1 ? " problem" : " problems")
            << " (" << report.integrity.size() << " from integrity_check; " << checked
            << " checked; " << disk << ")\n";
  if (only_disk) {
    std::cout << "the store holds those documents as they were collected; the files named were "
                 "changed since (store rebuild refuses them)\n";
    return;
  }
  std::cout << "recover: 'pbench store rebuild --db " << report.path
            << "' makes a new store from the result documents in the runs directory\n";
}

void print_json(const ingest::VerifyReport& report) {
  nlohmann::json problems = nlohmann::json::array();
  for (const auto& p : report.problems) {
    problems.push_back({{"kind", p.kind},
                        {"result_id", p.result_id ? nlohmann::json(*p.result_id) : nullptr},
                        {"sweep", p.sweep},
                        {"point", p.point},
                        {"metric", p.metric},
                        {"stored", p.stored},
                        {"document", p.document},
                        {"message", p.message}});
  }
  const nlohmann::json out = {{"store", report.path},
                              {"damaged", report.damaged()},
                              {"integrity_check", report.integrity},
                              {"results", report.results},
                              {"metric_rows", report.metric_rows},
                              {"on_disk", report.on_disk},
                              {"missing_on_disk", report.missing_on_disk},
                              {"problems", problems}};
  std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

void add_verify(CLI::App& store_command, GlobalOptions& global) {
  auto* command = store_command.add_subcommand(
      "verify",
      "Check the whole store: SQLite's integrity_check, every result's document against its "
      "SHA-256 and against its file in the runs directory, and every metric row against its "
      "document; name each difference (exit 7)");
  auto o = std::make_shared<VerifyOptions>();
  command->add_option("--format", o->format, "table or json")
      ->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
  command->callback([o, &global] {
    ingest::VerifyReport report;
    try {
      auto store = store::Store::open(global.db, store::Store::Access::read_only);
      report = ingest::verify_store(store.db());
    } catch (const StoreDamagedError&) {
      // Too damaged for Store::open to read its schema: SQLite's checks still say what.
      store::Database db(global.db, store::Database::Mode::read_only);
      report = ingest::verify_store(db);
    }
    if (o->format == "json") {
      print_json(report);
    } else {
      print_table(report);
    }
    if (report.damaged()) global.exit_code = kDamagedStore;
  });
}

void add_rebuild(CLI::App& store_command, GlobalOptions& global) {
  auto* command = store_command.add_subcommand(
      "rebuild",
      "Make a new store from the runs directory (each sweep's sweep.json and its attempts' "
      "result documents); the store named by --db is only read, never changed");
  auto o = std::make_shared<RebuildOptions>();
  command->add_option("-o,--output", o->output,
                      "The new store (default: the --db store's path with .rebuilt); must not "
                      "exist");
  command->callback([o, &global] {
    const std::string output = o->output.empty() ? global.db + ".rebuilt" : o->output;
    const auto report = run::rebuild_store(global.db, global.runs_dir, output);
    for (const auto& m : report.messages) std::cerr << "  " << m << "\n";
    std::cout << "store '" << report.new_path << "' rebuilt from the runs directory '"
              << report.runs_dir << "': " << report.sweeps << " sweeps, " << report.points
              << " points, " << report.runs << " runs, " << report.attempts << " attempts, "
              << report.results << " results stored";
    if (report.rejected > 0) std::cout << ", " << report.rejected << " result documents refused";
    std::cout << "\n";
    if (report.old_results) {
      std::cout << "the store '" << report.old_path << "' (kept as it was) held "
                << *report.old_results << " results";
      if (report.old_results_without_point.value_or(0) > 0) {
        std::cout << ", " << *report.old_results_without_point
                  << " of them without a point (not in the runs directory: not rebuilt)";
      }
      std::cout << "\n";
    } else {
      std::cout << "the store '" << report.old_path << "' (kept as it was) could not be read\n";
    }
    std::cout << "to use the new store: mv '" << report.old_path << "' '" << report.old_path
              << ".damaged' && mv '" << report.new_path << "' '" << report.old_path << "'\n";
  });
}

void print_merge(const store::MergeCounts& c, const std::string& into) {
  std::cout << "merged '" << c.from << "' into '" << into << "': " << c.sweeps_new
            << (c.sweeps_new == 1 ? " sweep" : " sweeps") << " new, " << c.sweeps_joined
            << " joined; " << c.runs << " runs, " << c.points << " points, " << c.attempts
            << " attempts, " << c.results << " results (" << c.metrics << " metric rows) added; "
            << c.results_known << " results skipped (their documents were in the store already), "
            << c.runs_known << " runs it held already\n";
  for (const auto& r : c.renamed) std::cout << "  renamed " << r << "\n";
}

void add_merge(CLI::App& store_command, GlobalOptions& global) {
  auto* command = store_command.add_subcommand(
      "merge",
      "Bring the sweeps, runs, points, attempts and results of other store files into this one "
      "(--db), each row with its origin (store file and cluster); a result whose document is "
      "here already is skipped; one transaction: a merge that fails writes nothing, the FROM "
      "files are only read");
  auto o = std::make_shared<MergeOptions>();
  command->add_option("FROM", o->from, "The store files to merge (each of this store version)")
      ->required();
  command->add_flag("--rename", o->merge.rename,
                    "Store a sweep that clashes with a stored one of its name (another "
                    "specification or another cluster) as NAME@CLUSTER instead of refusing");
  command->add_option("--cluster", o->merge.cluster,
                      "The cluster of the FROM stores' sweeps whose site profile named none "
                      "(default: the FROM file's name without its extension)");
  command->callback([o, &global] {
    auto into = store::Store::open(global.db, store::Store::Access::create);
    const auto counts = store::StoreMerge(into, o->merge).merge(o->from);
    for (const auto& c : counts) print_merge(c, global.db);
  });
}

}  // namespace

void add_store_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand(
      "store",
      "Verify the store (integrity, documents, metric rows), rebuild it from the runs "
      "directory, or merge other stores into it");
  command->require_subcommand(1);
  add_verify(*command, global);
  add_rebuild(*command, global);
  add_merge(*command, global);
}

}  // namespace pbench::cli
