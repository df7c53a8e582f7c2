#pragma once
// Job script templates with named placeholders {{name}}. Every substituted value is
// shell-quoted (a word) or quoted word by word (a command), except directive lines that their
// scheduler quoted; a placeholder the caller does not know, or a required one the template
// lacks, is an error.
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

namespace pbench::jobs {

/// Lines written as they are (a scheduler's directives and shell lines, which it quotes itself),
/// joined by line breaks; a line may not hold a newline or NUL. None, for a placeholder alone on
/// its line, leaves no empty line.
struct VerbatimLines {
  std::vector<std::string> lines;
};

/// A single shell word, a command given as its words, or verbatim lines.
using TemplateValue = std::variant<std::string, std::vector<std::string>, VerbatimLines>;

class JobTemplate {
 public:
  /// Parses `text`; `name` appears in errors. Throws UsageError for a malformed placeholder.
  JobTemplate(std::string name, std::string text);

  /// The placeholder names the template uses.
  const std::set<std::string>& placeholders() const { return placeholders_; }

  /// Substitutes `values`. Throws UsageError when the template uses a placeholder not in
  /// `values`, or lacks one of `required`.
  std::string render(const std::map<std::string, TemplateValue>& values,
                     const std::set<std::string>& required) const;

  /// The built-in template (jobtemplates/job.sh): one body for every scheduler, which fills in
  /// its directives and lines.
  static JobTemplate builtin();

 private:
  struct Piece {
    bool is_placeholder;
    std::string text;
  };
  std::string name_;
  std::vector<Piece> pieces_;
  std::set<std::string> placeholders_;
};

}  // namespace pbench::jobs
