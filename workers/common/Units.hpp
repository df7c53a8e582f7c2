#pragma once
// The one reading of sizes and times on every command line of pbench: the workers' parameters,
// `pbench --set`, --transfer-sizes and --schedule-times. Pure C++ (no MPI), so the orchestrator
// links it too.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pbench::units {

/// What the size parser accepts, for messages: "B, k/M/G/T or kB/MB/GB/TB (1000), KiB/MiB/GiB/TiB
/// (1024)".
extern const char* const kSizeUnits;
/// What the time parser accepts, for messages: "s, ms, us, min, h".
extern const char* const kTimeUnits;

/// A size in bytes: a number (bytes) or a number and a unit, "4096", "64KiB", "1.5MB", "2 GiB"
/// (the unit's case does not matter: "kb" is kB; "2k" is 2 kB). A fraction must give whole bytes.
/// Nothing for anything else: no number, an unknown unit, a negative or an overflowing value.
std::optional<std::int64_t> parse_size(std::string_view text);

/// A time in seconds: a number (seconds) or a number and a unit, "60", "1.5min", "250ms",
/// "20us", "-1.5" (the parameter decides whether a negative time means something). Nothing for
/// anything else (no number, an unknown unit, not finite).
/// `plain_unit` is what a number without a unit counts, in seconds (1e-6 for a parameter in us).
std::optional<double> parse_seconds(std::string_view text, double plain_unit = 1.0);

/// `seconds` written without e-notation and without trailing zeros: 0.0001 -> "0.0001".
std::string plain_number(double value);

/// `value` to `significant` digits as printf's %g writes it (1e-07, 0.25, 1.5e+06): the form of
/// every number quoted back in a worker's messages.
std::string short_number(double value, int significant = 6);

}  // namespace pbench::units
