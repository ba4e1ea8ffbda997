#include "traffic/jobs/goal_lexer.h"

namespace fabric::traffic {
namespace {

// ASCII only, whatever the locale: GOAL's grammar is ASCII.
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word_char(char c) { return is_letter(c) || is_digit(c) || c == '_'; }

std::string quoted_byte(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x20 && byte < 0x7f) return std::string("'") + c + "'";
  const char* hex = "0123456789abcdef";
  return std::string("byte \\x") + hex[byte >> 4] + hex[byte & 15];
}

}  // namespace

bool GoalLexer::next(GoalLine& line) {
  line.tokens.clear();
  if (!std::getline(in_, line.text)) {
    if (in_block_comment_) {
      throw GoalSyntaxError(block_comment_line_, block_comment_text_,
                            "\"*/\" closing the comment opened on this line, before the end of the file");
    }
    return false;
  }
  ++line_number_;
  if (!line.text.empty() && line.text.back() == '\r') line.text.pop_back();
  line.number = line_number_;
  tokenize(line);
  return true;
}

void GoalLexer::tokenize(GoalLine& line) {
  const std::string& s = line.text;
  const size_t n = s.size();
  size_t i = 0;
  auto take_while = [&](size_t from, bool (*belongs)(char)) {
    size_t end = from;
    while (end < n && belongs(s[end])) ++end;
    return end;
  };
  while (i < n) {
    if (in_block_comment_) {
      const size_t close = s.find("*/", i);
      if (close == std::string::npos) return;
      in_block_comment_ = false;
      i = close + 2;
      continue;
    }
    const char c = s[i];
    const char following = i + 1 < n ? s[i + 1] : '\0';
    if (c == ' ' || c == '\t') {
      ++i;
    } else if (c == '/' && following == '/') {
      return;
    } else if (c == '/' && following == '*') {
      in_block_comment_ = true;
      block_comment_line_ = line.number;
      block_comment_text_ = s;
      i += 2;
    } else if (is_letter(c)) {
      const size_t end = take_while(i, is_word_char);
      line.tokens.push_back({GoalTokenKind::word, s.substr(i, end - i)});
      i = end;
    } else if (is_digit(c)) {
      const size_t end = take_while(i, is_digit);
      line.tokens.push_back({GoalTokenKind::number, s.substr(i, end - i)});
      i = end;
    } else if (c == '-' && is_digit(following)) {
      const size_t end = take_while(i + 1, is_digit);
      line.tokens.push_back({GoalTokenKind::negative_number, s.substr(i, end - i)});
      i = end;
    } else if (c == ':' || c == '{' || c == '}') {
      const GoalTokenKind kind = c == ':'   ? GoalTokenKind::colon
                                 : c == '{' ? GoalTokenKind::open_brace
                                            : GoalTokenKind::close_brace;
      line.tokens.push_back({kind, std::string(1, c)});
      ++i;
    } else {
      throw GoalSyntaxError(line.number, s,
                            "a keyword, a label, an integer, \":\", \"{\", \"}\" or a comment; not " + quoted_byte(c));
    }
  }
}

}  // namespace fabric::traffic
