// The grammar of GOAL's text schedules over GoalLexer's lines: which items a
// line may hold where, the ranges of their numbers, labels and dependencies
// per rank block, and the dependency-cycle check when a block closes.
#include "traffic/jobs/goal_reader.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <optional>
#include <unordered_map>

#include "config/config_error.h"
#include "traffic/jobs/dependency_cycle.h"
#include "traffic/jobs/goal_lexer.h"

namespace fabric::traffic {
namespace {

using config::ConfigError;

// The rank vector is allocated up front from num_ranks, so a typo (an extra
// digit or ten) must not reserve gigabytes; 2^24 ranks is far beyond any
// fabric fabricsim models.
constexpr uint64_t kMaxRanks = uint64_t{1} << 24;
constexpr uint64_t kMaxSize = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
constexpr const char* kWildcardRefusal =
    "a source rank and a tag of 0 or more (any-source / any-tag receives are not supported: fabricsim matches "
    "each send to its recv statically)";

// A line's tokens, taken from the front.
class TokenCursor {
 public:
  explicit TokenCursor(const std::vector<GoalToken>& tokens) : tokens_(tokens) {}
  bool done() const { return next_ == tokens_.size(); }
  const GoalToken* peek(size_t ahead = 0) const {
    return next_ + ahead < tokens_.size() ? &tokens_[next_ + ahead] : nullptr;
  }
  bool take_word(const char* word) {
    const GoalToken* t = peek();
    if (t == nullptr || t->kind != GoalTokenKind::word || t->text != word) return false;
    ++next_;
    return true;
  }
  const GoalToken* take(GoalTokenKind kind) {
    const GoalToken* t = peek();
    if (t == nullptr || t->kind != kind) return nullptr;
    ++next_;
    return t;
  }

 private:
  const std::vector<GoalToken>& tokens_;
  size_t next_ = 0;
};

std::optional<uint64_t> decimal(const std::string& digits) {
  uint64_t value = 0;
  for (const char c : digits) {
    const auto digit = static_cast<uint64_t>(c - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

class GoalParser {
 public:
  GoalParser(std::string key, std::string origin, Picos calc_unit_ps)
      : key_(std::move(key)), origin_(std::move(origin)), calc_unit_ps_(calc_unit_ps) {}

  JobSchedule parse(std::istream& in) {
    GoalLexer lexer(in);
    GoalLine line;
    try {
      while (lexer.next(line)) {
        if (!line.tokens.empty()) parse_line(line);
      }
    } catch (const GoalSyntaxError& e) {
      throw ConfigError(key_, e.line_text, e.allowed, origin_ + ":" + std::to_string(e.line));
    }
    if (in.bad()) throw ConfigError(key_, origin_, "a readable GOAL schedule (reading failed)", origin_);
    const std::string end = origin_ + ":" + std::to_string(std::max<uint64_t>(lexer.lines_read(), 1));
    if (block_rank_ >= 0) {
      throw ConfigError(key_, block_open_text_,
                        "\"}\" closing the block of rank " + std::to_string(block_rank_) + " (opened on line " +
                            std::to_string(block_open_line_) + ") before the end of the file",
                        origin_ + ":" + std::to_string(block_open_line_));
    }
    if (!num_ranks_) throw ConfigError(key_, "end of file", "\"num_ranks N\" before the first rank block", end);
    schedule_.algorithm = "goal";
    schedule_.steps = 1;
    return std::move(schedule_);
  }

 private:
  struct Label {
    uint32_t op;
    uint64_t line;
  };
  struct DependencyLine {
    uint32_t op, on;
    uint64_t line;
    std::string text;
  };

  [[noreturn]] void fail(const GoalLine& line, const std::string& allowed) const {
    throw ConfigError(key_, line.text, allowed, origin_ + ":" + std::to_string(line.number));
  }

  void parse_line(const GoalLine& line) {
    TokenCursor tokens(line.tokens);
    if (tokens.take_word("num_ranks")) return num_ranks_line(line, tokens);
    if (tokens.take_word("rank")) return rank_line(line, tokens);
    if (tokens.take(GoalTokenKind::close_brace)) return close_block(line, tokens);
    if (block_rank_ < 0) {
      fail(line,
           "outside a rank block: \"num_ranks N\", \"rank N {\" or a comment (sends, recvs, calcs and "
           "dependencies go inside \"rank N { ... }\")");
    }
    item_line(line, tokens);
  }

  void num_ranks_line(const GoalLine& line, TokenCursor& tokens) {
    const char* allowed = "\"num_ranks N\" once, before the first rank block, N from 1 to 16777216";
    if (num_ranks_ || block_rank_ >= 0 || any_block_) fail(line, allowed);
    const uint64_t n = number(line, tokens, kMaxRanks, [allowed] { return allowed; });
    if (n == 0 || !tokens.done()) fail(line, allowed);
    num_ranks_ = static_cast<uint32_t>(n);
    schedule_.ranks.resize(n);
    rank_has_block_.assign(n, false);
  }

  void rank_line(const GoalLine& line, TokenCursor& tokens) {
    if (block_rank_ >= 0) {
      fail(line, "\"}\" closing the block of rank " + std::to_string(block_rank_) + " (opened on line " +
                     std::to_string(block_open_line_) + ") before the next rank block");
    }
    if (!num_ranks_) fail(line, "\"num_ranks N\" before the first rank block");
    const std::string allowed = "\"rank R {\" with R from 0 to " + std::to_string(*num_ranks_ - 1) +
                                ", one block a rank (num_ranks " + std::to_string(*num_ranks_) + ")";
    const uint64_t rank = number(line, tokens, *num_ranks_ - 1, [&] { return allowed; });
    if (!tokens.take(GoalTokenKind::open_brace) || !tokens.done() || rank_has_block_[rank]) fail(line, allowed);
    rank_has_block_[rank] = true;
    any_block_ = true;
    block_rank_ = static_cast<int32_t>(rank);
    block_open_line_ = line.number;
    block_open_text_ = line.text;
  }

  void close_block(const GoalLine& line, TokenCursor& tokens) {
    if (block_rank_ < 0) fail(line, "\"}\" only closing a rank block (\"rank N {\")");
    if (!tokens.done()) fail(line, "nothing after \"}\" on its line");
    check_no_cycle();
    block_rank_ = -1;
    labels_.clear();
    dependency_lines_.clear();
  }

  // [label:] send|recv|calc ..., or "label requires|irequires label".
  void item_line(const GoalLine& line, TokenCursor& tokens) {
    const GoalToken* first = tokens.peek();
    const GoalToken* second = tokens.peek(1);
    const bool is_op =
        first->kind == GoalTokenKind::word && (first->text == "send" || first->text == "recv" || first->text == "calc");
    const char* in_a_block =
        "\"send\", \"recv\", \"calc\", \"LABEL:\" before one of them, \"LABEL requires LABEL\", "
        "\"LABEL irequires LABEL\" or \"}\"";
    if (first->kind != GoalTokenKind::word) fail(line, in_a_block);
    std::string label;
    if (!is_op) {
      if (second != nullptr && second->kind == GoalTokenKind::word &&
          (second->text == "requires" || second->text == "irequires")) {
        return dependency_line(line, tokens);
      }
      if (second == nullptr || second->kind != GoalTokenKind::colon) fail(line, in_a_block);
      label = first->text;
      tokens.take(GoalTokenKind::word);
      tokens.take(GoalTokenKind::colon);
    }
    JobOp op;
    if (tokens.take_word("send")) {
      op.kind = JobOpKind::send;
      message(line, tokens, op, "to");
    } else if (tokens.take_word("recv")) {
      op.kind = JobOpKind::recv;
      message(line, tokens, op, "from");
    } else if (tokens.take_word("calc")) {
      op.kind = JobOpKind::calc;
      calc(line, tokens, op);
    } else {
      fail(line, "\"send\", \"recv\" or \"calc\" after the label");
    }
    const uint32_t index = add_op(schedule_, block_rank_, std::move(op));
    if (label.empty()) return;
    const auto [it, added] = labels_.emplace(label, Label{index, line.number});
    if (!added) {
      fail(line, "a label not yet used in the block of rank " + std::to_string(block_rank_) + " (" + label +
                     " labels line " + std::to_string(it->second.line) + ")");
    }
  }

  // SIZEb to|from RANK [tag T] [cpu C] [nic N]. The allowed texts are
  // built only on failure: a traced schedule has millions of these lines.
  void message(const GoalLine& line, TokenCursor& tokens, JobOp& op, const char* direction) {
    const char* kind = op.kind == JobOpKind::send ? "send" : "recv";
    auto syntax = [&] { return std::string(kind) + " SIZEb " + direction + " RANK [tag T] [cpu C] [nic N]"; };
    op.bytes = number(line, tokens, kMaxSize, [&] { return syntax() + " with SIZE at most 2^63 - 1"; });
    if (!tokens.take_word("b") || !tokens.take_word(direction)) fail(line, syntax());
    auto peer_allowed = [&] {
      return syntax() + " with RANK from 0 to " + std::to_string(*num_ranks_ - 1) + " other than " +
             std::to_string(block_rank_) + " itself";
    };
    if (tokens.peek() != nullptr && tokens.peek()->kind == GoalTokenKind::negative_number) {
      fail(line, op.kind == JobOpKind::recv && tokens.peek()->text == "-1" ? kWildcardRefusal : peer_allowed());
    }
    const uint64_t peer = number(line, tokens, *num_ranks_ - 1, peer_allowed);
    if (peer == static_cast<uint64_t>(block_rank_)) fail(line, peer_allowed());
    op.peer = static_cast<int32_t>(peer);
    // txt2bin's order: tag, then cpu, then nic, each optional.
    const char* rest = "\"tag T\", \"cpu C\", \"nic N\" or the end of the line";
    if (tokens.take_word("tag")) {
      const GoalToken* t = tokens.peek();
      auto tag_allowed = [] { return "a tag from 0 to 4294967295"; };
      if (t != nullptr && t->kind == GoalTokenKind::negative_number) {
        fail(line, t->text == "-1" ? kWildcardRefusal : tag_allowed());
      }
      op.tag = static_cast<uint32_t>(number(line, tokens, std::numeric_limits<uint32_t>::max(), tag_allowed));
      rest = "\"cpu C\", \"nic N\" or the end of the line";
    }
    if (tokens.take_word("cpu")) {
      ignored_number(line, tokens, "\"cpu C\" with C an integer (ignored)");
      rest = "\"nic N\" or the end of the line";
    }
    if (tokens.take_word("nic")) {
      ignored_number(line, tokens, "\"nic N\" with N an integer (ignored)");
      rest = "the end of the line";
    }
    if (!tokens.done()) fail(line, std::string("after the ") + kind + ": " + rest);
  }

  // TIME [cpu C]
  void calc(const GoalLine& line, TokenCursor& tokens, JobOp& op) {
    const uint64_t largest = kMaxSize / static_cast<uint64_t>(calc_unit_ps_);
    const uint64_t time = number(line, tokens, largest, [&] {
      return "calc TIME [cpu C] with TIME at most " + std::to_string(largest) + " calc units of " +
             std::to_string(calc_unit_ps_) + " ps (2^63 - 1 ps)";
    });
    op.duration = static_cast<Picos>(time) * calc_unit_ps_;
    if (tokens.take_word("cpu")) {
      ignored_number(line, tokens, "\"cpu C\" with C an integer (ignored)");
      if (!tokens.done()) fail(line, "after the calc: the end of the line");
    }
    if (!tokens.done()) fail(line, "after the calc: \"cpu C\" or the end of the line");
  }

  // LABEL requires|irequires LABEL2
  void dependency_line(const GoalLine& line, TokenCursor& tokens) {
    const std::string waiting = tokens.take(GoalTokenKind::word)->text;
    const bool on_start = tokens.take_word("irequires");
    if (!on_start) tokens.take_word("requires");
    const GoalToken* awaited = tokens.take(GoalTokenKind::word);
    if (awaited == nullptr || !tokens.done()) fail(line, "\"LABEL requires LABEL\" or \"LABEL irequires LABEL\"");
    const uint32_t op = label_op(line, waiting);
    const uint32_t on = label_op(line, awaited->text);
    std::vector<uint32_t>& list = on_start ? ops()[op].after_start : ops()[op].after;
    if (std::find(list.begin(), list.end(), on) != list.end()) return;  // said twice, waited for once
    list.push_back(on);
    dependency_lines_.push_back({op, on, line.number, line.text});
  }

  uint32_t label_op(const GoalLine& line, const std::string& label) const {
    const auto it = labels_.find(label);
    if (it == labels_.end()) {
      fail(line,
           "labels defined above in the block of rank " + std::to_string(block_rank_) + " (" + label + " is not)");
    }
    return it->second.op;
  }

  // Ops that wait for each other in a ring never start: refused at the
  // dependency line that closed the ring (the latest of them).
  void check_no_cycle() const {
    const std::vector<uint32_t> cycle = dependency_cycle(schedule_.ranks[static_cast<size_t>(block_rank_)]);
    if (cycle.empty()) return;
    std::unordered_map<uint32_t, std::string> label_of;
    for (const auto& [label, where] : labels_) label_of[where.op] = label;
    // Told from the op whose line closed the ring, so the message reads
    // like that line ("b requires a": "b waits for a waits for b").
    const DependencyLine* latest = nullptr;
    size_t latest_at = 0;
    for (size_t i = 0; i < cycle.size(); ++i) {
      const uint32_t op = cycle[i], on = cycle[(i + 1) % cycle.size()];
      for (const DependencyLine& d : dependency_lines_) {
        if (d.op == op && d.on == on && (latest == nullptr || d.line > latest->line)) {
          latest = &d;
          latest_at = i;
        }
      }
    }
    std::string ring;
    for (size_t i = 0; i < cycle.size(); ++i) ring += label_of[cycle[(latest_at + i) % cycle.size()]] + " waits for ";
    ring += label_of[cycle[latest_at]];
    GoalLine at;
    at.number = latest->line;
    at.text = latest->text;
    fail(at, "dependencies without a cycle in the block of rank " + std::to_string(block_rank_) + " (" + ring +
                 ": none of them can ever start)");
  }

  // The next token as an integer of at most `largest`; else fails with
  // allowed(), a callable so that its text is built only then.
  template <class Allowed>
  uint64_t number(const GoalLine& line, TokenCursor& tokens, uint64_t largest, const Allowed& allowed) const {
    const GoalToken* t = tokens.take(GoalTokenKind::number);
    const std::optional<uint64_t> value = t != nullptr ? decimal(t->text) : std::nullopt;
    if (!value || *value > largest) fail(line, allowed());
    return *value;
  }
  void ignored_number(const GoalLine& line, TokenCursor& tokens, const char* allowed) const {
    number(line, tokens, std::numeric_limits<uint64_t>::max(), [allowed] { return allowed; });
  }

  std::vector<JobOp>& ops() { return schedule_.ranks[static_cast<size_t>(block_rank_)].ops; }

  const std::string key_, origin_;
  const Picos calc_unit_ps_;
  JobSchedule schedule_;
  std::optional<uint32_t> num_ranks_;
  std::vector<bool> rank_has_block_;
  bool any_block_ = false;
  // The open block: its rank (-1 between blocks), where it opened, its
  // labels and dependency lines (for the cycle's message).
  int32_t block_rank_ = -1;
  uint64_t block_open_line_ = 0;
  std::string block_open_text_;
  std::unordered_map<std::string, Label> labels_;
  std::vector<DependencyLine> dependency_lines_;
};

}  // namespace

JobSchedule read_goal(std::istream& in, const std::string& key, const std::string& origin, Picos calc_unit_ps) {
  if (calc_unit_ps <= 0) {
    throw ConfigError(key, std::to_string(calc_unit_ps) + " ps", "a calc unit of at least 1 ps", origin);
  }
  return GoalParser(key, origin, calc_unit_ps).parse(in);
}

JobSchedule read_goal_file(const std::string& path, const std::string& key, Picos calc_unit_ps) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(key, path, "a readable GOAL schedule file", path);
  return read_goal(in, key, path, calc_unit_ps);
}

}  // namespace fabric::traffic
