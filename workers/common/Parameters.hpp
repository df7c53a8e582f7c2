#pragma once
// Worker parameters, declared once: each is a command-line option `--some-name`, also read from
// the environment as PBENCH_SOME_NAME (the command line wins), documented with its unit and
// default in --help, and echoed with its value and source into the result document.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace pbench::worker {

/// The values a numeric parameter accepts, both ends included, in the parameter's unit (long
/// double: its 64-bit mantissa holds every 64-bit integer, 2^64 - 1 too).
struct Range {
  long double min;
  long double max;
  /// "1 to 1000000": the words --help, --describe-parameters and the refusal use.
  std::string text() const;
};

/// A problem with the run's inputs that every rank detects alike (a parameter outside its range,
/// too few processes): rank 0 prints it, every rank exits with status 2, nothing is written.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Parameters {
 public:
  /// A parameter set for `pbench-<worker>`; `description` heads the --help text.
  Parameters(std::string worker, std::string description);

  /// Declares parameter `name` (snake_case) bound to `value`, whose current value is the default;
  /// `short_flag` ("-T") is an optional second spelling on the command line. A number (or a list
  /// of numbers) states the values it accepts in `range`, in its unit: --help and
  /// --describe-parameters show them, and a value outside (an overflowing one too) is refused,
  /// naming the range.
  template <class T>
  CLI::Option* add(const std::string& name, T& value, std::string unit, Range range,
                   const std::string& help, const std::string& short_flag = "") {
    static_assert(is_number<T>::value, "a range is for a number or a list of numbers");
    CLI::Option* option = declare(name, value, unit, describe(help, unit, range), short_flag);
    option->check(in_range(range, is_integral<T>::value));
    entries_.back().range = range;
    return option;
  }

  /// Declares parameter `name` that is not a number (a word, a path, a list of words).
  template <class T>
  CLI::Option* add(const std::string& name, T& value, std::string unit, const std::string& help,
                   const std::string& short_flag = "") {
    static_assert(!is_number<T>::value, "a numeric parameter states its range");
    return declare(name, value, unit, describe(help, unit, std::nullopt), short_flag);
  }

  /// Declares a boolean switch `--name` (also PBENCH_NAME=1/0).
  CLI::Option* add_flag(const std::string& name, bool& value, const std::string& help);

  /// Parses argv. Returns an exit code when the program should stop (0 after --help, 2 after a
  /// usage error, both already printed), or nothing when the run goes on.
  std::optional<int> parse(int argc, char** argv);

  /// Every parameter as {"name": {"value", "unit", "source"}}.
  nlohmann::json echo() const;
  /// The command-line arguments as given (without the program name): the result records them,
  /// and pbench compares them with the ones its point fixed.
  const std::vector<std::string>& arguments() const { return argv_; }
  /// What --describe-parameters prints: {"worker", "parameters": [{"name", "option", "unit",
  /// "default", "flag", "help"}]}, so that `pbench --set` can check a name before a job runs.
  nlohmann::json describe_parameters() const;

  /// The underlying CLI11 application, for checks that span parameters.
  CLI::App& app() { return app_; }
  const std::string& worker() const { return worker_; }

  /// The environment variable for a parameter: "queue_depths" -> "PBENCH_QUEUE_DEPTHS".
  static std::string env_of(const std::string& name);
  /// The option for a parameter: "queue_depths" -> "--queue-depths".
  static std::string flag_of(const std::string& name);

 private:
  template <class T>
  struct is_vector : std::false_type {};
  template <class T, class A>
  struct is_vector<std::vector<T, A>> : std::true_type {};
  template <class T>
  struct is_number : std::bool_constant<std::is_arithmetic_v<T> && !std::is_same_v<T, bool>> {};
  template <class T, class A>
  struct is_number<std::vector<T, A>> : is_number<T> {};
  template <class T>
  struct is_integral : std::is_integral<T> {};
  template <class T, class A>
  struct is_integral<std::vector<T, A>> : std::is_integral<T> {};
  template <class T>
  CLI::Option* declare(const std::string& name, T& value, std::string unit,
                       const std::string& description, const std::string& short_flag) {
    const std::string names = short_flag.empty() ? flag_of(name) : short_flag + "," + flag_of(name);
    CLI::Option* option = app_.add_option(names, value, description);
    option->envname(env_of(name))->capture_default_str();
    if constexpr (is_vector<T>::value) option->delimiter(',');
    // CLI11 reads an empty word as 0 for a number; a user who wrote --root '' meant something.
    if constexpr (is_number<T>::value) option->check(non_empty_number());
    // Every size [B] and every time [s, us] is read by the one parser of common/Units.hpp.
    if constexpr (is_number<T>::value) {
      if (auto reader = unit_reader(unit)) option->transform(*reader);
    }
    entries_.push_back({name, std::move(unit), option, [&value] { return nlohmann::json(value); }});
    return option;
  }
  /// Refuses a number outside `range` (read after the unit reader has made it a plain number).
  /// `whole`: the parameter is an integer, written in digits.
  static CLI::Validator in_range(Range range, bool whole);
  /// Refuses an empty word where a number (or a list of numbers) is expected.
  static CLI::Validator non_empty_number();
  /// The reader of a parameter in `unit` ("B": sizes with units, "s" and "us": times with units),
  /// which rewrites the word as a plain number in that unit; nothing for other units.
  static std::optional<CLI::Validator> unit_reader(const std::string& unit);

  struct Entry {
    std::string name;
    std::string unit;
    CLI::Option* option;
    std::function<nlohmann::json()> value;
    bool flag = false;
    std::optional<Range> range{};
  };

  static std::string describe(const std::string& help, const std::string& unit,
                              const std::optional<Range>& range);

  std::string worker_;
  CLI::App app_;
  std::vector<Entry> entries_;
  std::vector<std::string> argv_;
  bool describe_parameters_ = false;
};

/// True in the process that should print messages before MPI starts (rank 0 of the launch, or
/// a process started without a launcher).
bool is_reporting_process();

}  // namespace pbench::worker
