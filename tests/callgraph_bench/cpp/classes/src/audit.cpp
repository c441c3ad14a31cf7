#include "inventory/audit.h"

namespace inv {

void AuditLog::record(const std::string& what) { entries_.push_back(what); }

}  // namespace inv
