#pragma once
// The io worker's consortium suite in a sweep (METHODS.md section 3): the suite is the io
// setting `suite` (`--suite consortium` is `--set io.suite=consortium`), and its transfer sizes,
// access patterns and collective on/off are sweep dimensions beside the hint sets. Every point's
// layout is checked with the worker's own rules (io/ConsortiumPattern) before anything is stored.
#include <cstdint>
#include <string>
#include <vector>

namespace pbench::sweep {

struct SweepSpec;

/// The io suite a specification runs: its io setting `suite`, or "b_eff_io" (the default).
std::string io_suite(const SweepSpec& spec);
/// Parses "64KiB,1MiB,4096" into byte counts (k = 1000, Ki = 1024, as the workers read sizes);
/// throws UsageError naming `option` and the bad item.
std::vector<std::int64_t> parse_size_list(const std::string& text, const std::string& option);
/// Parses "segmented,strided" into access pattern names; throws UsageError naming the bad item.
std::vector<std::string> parse_pattern_list(const std::string& text, const std::string& option);
/// Parses "on,off" (also 1/0, yes/no, true/false) into collective switches; throws UsageError.
std::vector<bool> parse_switch_list(const std::string& text, const std::string& option);
/// Checks the io suite, the consortium dimensions and every point's layout against the worker's
/// rules (io's check in its description, sweep/WorkerCatalog.cpp; each value has been checked
/// alone); throws UsageError naming the option, the point and the problem.
void validate_io_suite(const SweepSpec& spec);
/// Checks an access pattern's name (of a sweep's --patterns); throws UsageError naming it.
void check_pattern(const std::string& name);

}  // namespace pbench::sweep
