#pragma once
// Worker parameters, declared once: each is a command-line option `--some-name`, also read from
// the environment as PBENCH_SOME_NAME (the command line wins), documented with its unit and
// default in --help, and echoed with its value and source into the result document.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace pbench::worker {

class Parameters {
 public:
  /// A parameter set for `pbench-<worker>`; `description` heads the --help text.
  Parameters(std::string worker, std::string description);

  /// Declares parameter `name` (snake_case) bound to `value`, whose current value is the default;
  /// `short_flag` ("-T") is an optional second spelling on the command line.
  template <class T>
  CLI::Option* add(const std::string& name, T& value, std::string unit, const std::string& help,
                   const std::string& short_flag = "") {
    const std::string names = short_flag.empty() ? flag_of(name) : short_flag + "," + flag_of(name);
    CLI::Option* option = app_.add_option(names, value, describe(help, unit));
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
  };

  static std::string describe(const std::string& help, const std::string& unit);

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
