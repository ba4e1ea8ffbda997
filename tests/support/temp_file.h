#pragma once
// A file under /tmp with the given content, removed when it goes out of
// scope: /tmp/fabricsim_<tag>_<pid>_<name>. Tests that include one file
// from another name it by prefix(tag) + name.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace fabric::testing {

class TempFile {
 public:
  static std::string prefix(const std::string& tag) {
    return "fabricsim_" + tag + "_" + std::to_string(::getpid()) + "_";
  }
  TempFile(const std::string& tag, const std::string& name, const std::string& content)
      : path_("/tmp/" + prefix(tag) + name) {
    std::ofstream(path_) << content;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace fabric::testing
