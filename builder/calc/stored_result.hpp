// What a recompute reads from a stored result document (results/<id>.json): its scenario values,
// checked as the reference tool checks its arguments, and the fields it carries over rather than computes.
#pragma once

#include <string>
#include <string_view>

#include "calc/checked_int.hpp"
#include "calc/data.hpp"
#include "calc/json.hpp"

namespace bb::calc {

// doc[key] as an exact integer (a JSON integer, never a bool or a float) of at least `minimum`
// (1: positive, 0: non-negative). A missing or wrong value is an Error naming `where.key`.
Int stored_int(const Json& doc, std::string_view key, std::string_view where, Int minimum = 1);
bool stored_bool(const Json& doc, std::string_view key, std::string_view where);
std::string stored_string(const Json& doc, std::string_view key, std::string_view where);
// doc[key] when it is an object (or a list, for stored_list); otherwise an Error naming `key`.
const Json& stored_object(const Json& doc, std::string_view key);
const Json& stored_list(const Json& doc, std::string_view key);

// Provenance rows ({file, sha256, ...}) a result records, checked against the book: a row whose file is
// in the calculations folder gets that file's sha256 now, so an edited config makes the result stale;
// a row whose file the book does not hold (a vendored paper, a weight index) stays as recorded. A file
// path that is absolute or leaves the folder is an Error: a book never makes the tool read outside it.
Json rehash_sources(const Data& data, const Json& rows);

// The rows a fresh document cites for a model: the lock's rows when the folder has
// configs/sources.lock.json, none otherwise.
Json model_provenance(const Data& data, std::string_view model);

// The document with the stored "assumptions" in place of its own, when the stored result has a list of
// strings there. They are the author's prose (in the book's language), not a computed value: the
// recomputation owns every number, the author owns the words.
Json with_stored_prose(Json fresh, const Json& stored);

}  // namespace bb::calc
