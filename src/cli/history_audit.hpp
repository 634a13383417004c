// What `wharf history --json` adds to each session from the audit tables (schema 4,
// store/audit_tables.cpp): the capabilities it ran with, its decisions and who answered
// them, how many connections the egress proxy refused, and which clients typed into it.
#pragma once

#include <boost/json/object.hpp>
#include <cstdint>

#include "core/result.hpp"
#include "store/metadata_store.hpp"

namespace wharf::cli {

// Adds "capabilities" (the object, or null when unknown), "decisions", "egress_refusals"
// and "inputs" to `session`.
core::Status add_audit(boost::json::object& session, const store::MetadataStore& store,
                       std::int64_t run_id, std::uint64_t session_id);

}  // namespace wharf::cli
