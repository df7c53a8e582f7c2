#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/Commands.hpp"
#include "cli/HeadlineSelection.hpp"
#include "query/CheckResult.hpp"
#include "query/Reference.hpp"
#include "query/ReferenceFile.hpp"
#include "query/RunSelection.hpp"
#include "store/Integrity.hpp"
#include "store/Store.hpp"
#include "util/Error.hpp"

namespace pbench::cli {

namespace {
struct ReferenceOptions {
  std::string sweep;
  std::string output;
  std::string tolerance = "5%";
  std::string run = "latest";
  std::string runs;
  std::string reference_path;
  std::string against;
  std::string format = "table";
  HeadlineSelection selection;  ///< --where, --envs
  bool strict = false;
  bool allow_reference_run = false;
};

// --where on reference and check: the figures' own keys, as the reference table's columns.
constexpr const char* kFigureWhereHelp =
    "key=value (repeatable): only the figures whose figure, env, partition or label (a link or "
    "node) matches";

// Makes the store read the run `text` names of `sweep` ("latest" or a number).
void choose_run(store::Store& store, const std::string& sweep, const std::string& text) {
  const auto selection = query::parse_run_selection(text);
  if (selection.kind == query::RunSelection::Kind::all) {
    throw UsageError("--run all: choose one run (a number or latest)");
  }
  if (!store.find_sweep(sweep)) throw UsageError("no sweep named '" + sweep + "'");
  if (selection.kind == query::RunSelection::Kind::number) {
    const int runs = query::run_count(store, sweep);
    if (selection.number > runs) {
      throw UsageError("--run " + std::to_string(selection.number) + ": sweep '" + sweep +
                       "' has " + (runs == 1 ? "run 1 only" : "runs 1 to " + std::to_string(runs)));
    }
    store.choose_run(store::RunChoice::number(selection.number));
  }
}
}  // namespace

void add_reference_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand(
      "reference", "Write a sweep's valid headline figures as reference values (TOML) for check");
  auto o = std::make_shared<ReferenceOptions>();
  command->add_option("name", o->sweep, "Sweep name")->required();
  command->add_option("-o,--output", o->output, "The reference file to write")->required();
  command
      ->add_option("--tolerance", o->tolerance,
                   "The default tolerance, a percentage; or with --runs, auto: each figure's "
                   "from its spread over the runs (3 robust standard deviations, at least 2%)")
      ->capture_default_str();
  auto* run_option =
      command->add_option("--run", o->run, "Which run: a number or latest")->capture_default_str();
  command
      ->add_option("--runs", o->runs,
                   "Several runs: the last N, or A-B; each figure's value is the median of the "
                   "runs, with its spread (n, MAD, p5, p95) written beside it")
      ->excludes(run_option);
  o->selection.declare(*command, kFigureWhereHelp);
  command->add_option("--format", o->format, "table, csv, json or markdown: what was written")
      ->capture_default_str();
  command->callback([o, &global] {
    const auto format = query::parse_format(o->format);
    const auto where = o->selection.clauses();
    const auto envs = o->selection.env_names();
    auto store = store::Store::open(global.db, store::Store::Access::read_only);
    query::Reference reference;
    if (o->runs.empty()) {
      if (o->tolerance == "auto") {
        throw UsageError(
            "--tolerance auto needs several runs (--runs N or A-B) to take the "
            "spread of");
      }
      choose_run(store, o->sweep, o->run);
      const auto tolerance = query::parse_tolerance(o->tolerance, "", "--tolerance");
      reference = query::reference_of(store, o->sweep, tolerance);
    } else {
      if (!store.find_sweep(o->sweep)) throw UsageError("no sweep named '" + o->sweep + "'");
      const int latest = query::run_count(store, o->sweep);
      const auto [first, last] = query::parse_run_range(o->runs, latest);
      const auto tolerance = o->tolerance == "auto"
                                 ? std::nullopt
                                 : std::optional<query::Tolerance>(
                                       query::parse_tolerance(o->tolerance, "", "--tolerance"));
      reference = query::reference_over_runs(store, o->sweep, first, last, tolerance);
    }
    query::select_envs(reference, envs);
    query::select_figures(reference, where);
    for (const auto& why : reference.left_out) {
      std::cerr << "pbench: warning: left out of the reference: " << why << "\n";
    }
    for (const auto& figure : reference.not_valid) {
      std::cerr << "pbench: warning: reference value of " << figure
                << " from a result that is not valid (marked valid = false)\n";
    }
    for (const auto& why : reference.wide_bands) {
      std::cerr << "pbench: warning: " << why << "\n";
    }
    if (reference.figures.empty()) {
      throw UsageError("sweep '" + o->sweep +
                       "' has no headline figure with a result to use "
                       "as a reference");
    }
    const std::string temporary = o->output + ".tmp";
    {
      std::ofstream out(temporary, std::ios::trunc);
      out << query::to_toml(reference);
      if (!out.flush()) throw UsageError("cannot write '" + temporary + "'");
    }
    std::filesystem::rename(temporary, o->output);
    const std::string written = "reference " + o->output + ": " +
                                std::to_string(reference.figures.size()) + " figures of sweep " +
                                o->sweep +
                                (reference.runs.empty() ? " run " + std::to_string(reference.run)
                                                        : ", the median of runs " + reference.runs);
    if (format == query::Format::table) {
      std::cout << written << "\n";
    } else {
      auto table = query::reference_table(reference);
      table.notes.insert(table.notes.begin(), written);
      query::print(table, format);
    }
  });
}

void add_check_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand(
      "check",
      "Compare a sweep's headline figures with reference values; exit 10 when one regressed, "
      "13 when one was measured under other settings (a changed definition), 11 when one is "
      "not valid, 12 when one is missing");
  auto o = std::make_shared<ReferenceOptions>();
  command->add_option("name", o->sweep, "Sweep name")->required();
  auto* reference = command->add_option("--reference", o->reference_path,
                                        "A reference file written by pbench reference");
  auto* against = command->add_option("--against", o->against,
                                      "Another sweep as the reference (its latest run)");
  reference->excludes(against);
  command->add_option("--tolerance", o->tolerance, "With --against: the tolerance, a percentage")
      ->capture_default_str();
  command->add_option("--run", o->run, "Which run of NAME: a number or latest")
      ->capture_default_str();
  command->add_option("--format", o->format, "table, csv, json or markdown")->capture_default_str();
  command->add_flag("--strict", o->strict,
                    "A figure not valid for the same reason as in the reference fails the gate "
                    "too (exit 11); without it, it is reported as 'not valid (as referenced)'");
  o->selection.declare(*command, std::string(kFigureWhereHelp) + " (of the reference)");
  command->add_flag("--allow-reference-run", o->allow_reference_run,
                    "Score a run the reference was made from (without it, refused: such a run "
                    "passes by construction)");
  command->callback([o, &global] {
    const auto format = query::parse_format(o->format);
    const auto where = o->selection.clauses();
    const auto envs = o->selection.env_names();
    if (o->reference_path.empty() == o->against.empty()) {
      throw UsageError("check needs --reference FILE or --against SWEEP");
    }
    query::Reference reference;
    if (!o->reference_path.empty()) {
      std::ifstream in(o->reference_path, std::ios::binary);
      if (!in) throw UsageError("cannot read reference '" + o->reference_path + "'");
      std::ostringstream text;
      text << in.rdbuf();
      reference = query::parse_reference(text.str(), o->reference_path);
    }
    auto store = store::Store::open(global.db, store::Store::Access::read_only);
    // A gate does not pass on figures read from a damaged file.
    store::require_intact_for_writing(store.db(), false);
    if (!o->against.empty()) {
      if (!store.find_sweep(o->against)) throw UsageError("no sweep named '" + o->against + "'");
      const auto tolerance = query::parse_tolerance(o->tolerance, "", "--tolerance");
      reference = query::reference_of(store, o->against, tolerance);
      for (const auto& why : reference.left_out) {
        std::cerr << "pbench: warning: not in the reference: sweep " << o->against << " " << why
                  << "\n";
      }
      for (const auto& figure : reference.not_valid) {
        std::cerr << "pbench: warning: the reference " << figure << " of sweep " << o->against
                  << " is not valid\n";
      }
    }
    query::select_envs(reference, envs);
    query::select_figures(reference, where);
    choose_run(store, o->sweep, o->run);
    const auto result =
        query::check_sweep(store, o->sweep, reference, {o->strict, o->allow_reference_run});
    query::print(result.table, format);
    global.exit_code = result.exit_code();
  });
}

}  // namespace pbench::cli
