#pragma once
#include <string>
#include <vector>

namespace inv {

class AuditLog {
 public:
  void record(const std::string& what);
  std::size_t size() const { return entries_.size(); }
  const std::vector<std::string>& entries() const { return entries_; }

 private:
  std::vector<std::string> entries_;
};

}  // namespace inv
