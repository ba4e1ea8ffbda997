#pragma once
// The lexical layer of the GOAL reader (goal_reader.h): a schedule's text,
// one line at a time, as tokens with the comments taken out. Line by line
// because traced schedules (Schedgen on an application's trace) run to
// gigabytes: only the line being read is held as text. No SystemC inside.
//
// Tokens: words ([a-zA-Z][a-zA-Z0-9_]*: keywords and labels), unsigned
// integers ([0-9]+), negative integers ("-1", the wildcards the reader
// refuses), ":", "{" and "}". "8b" is the integer 8 and the word "b", as in
// LogGOPSim's txt2bin, where blanks between them are optional too. Comments:
// "//" to the end of the line and "/* ... */", which may span lines (a line
// inside one has no tokens). Lines end in "\n" or "\r\n".
#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace fabric::traffic {

enum class GoalTokenKind : uint8_t { word, number, negative_number, colon, open_brace, close_brace };

struct GoalToken {
  GoalTokenKind kind = GoalTokenKind::word;
  std::string text;
};

struct GoalLine {
  uint64_t number = 0;            // 1 for the first line, as editors count
  std::string text;               // as written, without its line end: what an error quotes
  std::vector<GoalToken> tokens;  // comments removed; none for a blank or comment line
};

// A byte no token starts with, or a "/*" never closed: the line where it is
// and what was expected there. The reader turns it into a ConfigError.
class GoalSyntaxError : public std::runtime_error {
 public:
  GoalSyntaxError(uint64_t line, std::string line_text, std::string allowed)
      : std::runtime_error(allowed), line(line), line_text(std::move(line_text)), allowed(std::move(allowed)) {}
  const uint64_t line;
  const std::string line_text, allowed;
};

class GoalLexer {
 public:
  explicit GoalLexer(std::istream& in) : in_(in) {}
  // The next line into `line`; false at the end of the text (after checking
  // that no "/*" is left open). Throws GoalSyntaxError.
  bool next(GoalLine& line);
  uint64_t lines_read() const { return line_number_; }

 private:
  void tokenize(GoalLine& line);

  std::istream& in_;
  uint64_t line_number_ = 0;
  bool in_block_comment_ = false;
  uint64_t block_comment_line_ = 0;  // where the open "/*" is
  std::string block_comment_text_;
};

}  // namespace fabric::traffic
