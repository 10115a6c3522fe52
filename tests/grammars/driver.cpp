// llama.cpp's JSON-schema-to-GBNF converter and GBNF loader, run on JSON schemas and nothing
// else: no model, no vocabulary, no sampling. Built by scripts/setup-grammars.sh against the
// sources vendored in llama-cpp-python's sdist (extracted into .cache/, never committed);
// driven by tests/grammars/check_grammars.py.
//
//   gbnf-driver [--grammar] < schemas.jsonl > results.jsonl
//
// Each input line is one JSON schema (compact JSON on one line). Each output line is one JSON
// object, in input order, written and flushed before the next line is read:
//
//   {"ok": bool,
//    "stage": "ok" | "input" | "convert" | "grammar",   where it stopped
//    "errors": [string],       the converter's exception text, or the GBNF loader's errors
//    "warnings": [string],     the converter's own stderr lines (see below), verbatim
//    "grammar_bytes": int, "grammar_hash": "16 hex digits",   of the GBNF text (FNV-1a 64)
//    "rules": int,             rules in the loaded grammar
//    "grammar": string}        only with --grammar
//
// The two steps are exactly what llama-server does with `json_schema` / `response_format`
// (and what Ollama does with `format`, through its own copy of the same converter):
//   1. json_schema_to_grammar(schema): common_chat_schema_from_json builds the typed schema
//      tree (throws on what it cannot represent), the converter emits GBNF and throws on
//      collected errors (unresolved $ref, invalid regex).
//   2. llama_grammar_init_impl(vocab = nullptr, gbnf, "root", ...): parses the GBNF
//      (MAX_REPETITION_THRESHOLD, undefined rules), checks for a root rule and for left
//      recursion, and builds the initial parse stacks. A null vocabulary is how llama.cpp's
//      own grammar tests call it; only token-level operations need one.
//
// Warnings: the converter has no warning API. It collects "lost constraint" messages in a
// private vector and, when conversion succeeds, prints them all on one stderr line:
//   WARNING: JSON schema conversion was incomplete: <w1>; <w2>; ...
// So stderr (fd 2) is redirected to a temporary file around both steps and every line read
// back is reported; check_grammars.py splits that line into single warnings. Everything
// else the converter does not support it skips without a word; check_grammars.py finds those
// by ablation (see its docstring).

#include "json-schema-to-grammar.h"
#include "json.h"
#include "llama-grammar.h"
#include "llama-impl.h"

#include <nlohmann/json.hpp>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

// --- The few symbols the extracted files reference from the rest of llama.cpp --------------

// llama-impl.h's logger (defined in src/llama-impl.cpp, which pulls in ggml): the GBNF loader
// reports "failed to parse grammar", "grammar does not contain a 'root' symbol" and left
// recursion through it. Collected as errors of the current schema.
static std::vector<std::string> g_log;

void llama_log_internal(ggml_log_level level, const char * fmt, ...) {
    char buf[4096];
    va_list args;
    va_start(args, fmt);
    vsnprintf(buf, sizeof(buf), fmt, args);
    va_end(args);
    if (level == GGML_LOG_LEVEL_ERROR || level == GGML_LOG_LEVEL_WARN) {
        std::string msg(buf);
        while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) {
            msg.pop_back();
        }
        g_log.push_back(msg);
    }
}

// ggml.c's abort (GGML_ASSERT in json.cpp and llama-grammar.cpp). Nothing can be recovered.
void ggml_abort(const char * file, int line, const char * fmt, ...) {
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "GGML_ABORT %s:%d: ", file, line);
    vfprintf(stderr, fmt, args);
    fprintf(stderr, "\n");
    va_end(args);
    abort();
}

// The vocabulary methods llama-grammar.cpp calls for token-level work (src/llama-vocab.cpp
// needs the whole model loader). With vocab == nullptr none of them is reached; if one ever
// is, the driver says so instead of linking the model code in.
#include "llama-vocab.h"

[[noreturn]] static void no_vocab(const char * what) {
    throw std::runtime_error(std::string("gbnf-driver has no vocabulary (") + what + ")");
}

int32_t llama_vocab::tokenize(const char *, int32_t, llama_token *, int32_t, bool, bool) const {
    no_vocab("tokenize");
}

const std::string & llama_vocab::token_to_piece(llama_token) const {
    no_vocab("token_to_piece");
}

bool llama_vocab::is_eog(llama_token) const {
    no_vocab("is_eog");
}

// --- stderr capture -------------------------------------------------------------------------

class stderr_capture {
    int   saved_ = -1;
    FILE * tmp_  = nullptr;

  public:
    stderr_capture() {
        fflush(stderr);
        tmp_ = tmpfile();
        if (!tmp_) {
            throw std::runtime_error("tmpfile failed");
        }
        saved_ = dup(2);
        dup2(fileno(tmp_), 2);
    }

    // Restores fd 2 and returns what was written to it, one entry per non-empty line.
    std::vector<std::string> finish() {
        fflush(stderr);
        dup2(saved_, 2);
        close(saved_);
        saved_ = -1;
        std::string text;
        rewind(tmp_);
        char buf[65536];
        size_t n;
        while ((n = fread(buf, 1, sizeof(buf), tmp_)) > 0) {
            text.append(buf, n);
        }
        fclose(tmp_);
        tmp_ = nullptr;
        std::vector<std::string> lines;
        size_t start = 0;
        while (start <= text.size()) {
            size_t end = text.find('\n', start);
            if (end == std::string::npos) {
                end = text.size();
            }
            if (end > start) {
                lines.push_back(text.substr(start, end - start));
            }
            start = end + 1;
        }
        return lines;
    }

    ~stderr_capture() {
        if (saved_ >= 0) {
            finish();
        }
    }
};

static std::string fnv1a64(const std::string & s) {
    uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    char out[17];
    snprintf(out, sizeof(out), "%016llx", (unsigned long long) h);
    return out;
}

static std::vector<std::string> split_lines(const std::string & text) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) {
            end = text.size();
        }
        if (end > start) {
            out.push_back(text.substr(start, end - start));
        }
        start = end + 1;
    }
    return out;
}

static nlohmann::ordered_json run_one(const std::string & line, bool with_grammar) {
    nlohmann::ordered_json out;
    out["ok"]       = false;
    out["stage"]    = "input";
    out["errors"]   = nlohmann::json::array();
    out["warnings"] = nlohmann::json::array();

    common_json schema;
    try {
        schema = common_json::parse(line);
    } catch (const std::exception & e) {
        out["errors"].push_back(std::string("input is not JSON: ") + e.what());
        return out;
    }

    g_log.clear();
    std::string gbnf;
    std::vector<std::string> converter_stderr;
    bool converted = false;
    {
        stderr_capture cap;
        try {
            gbnf      = json_schema_to_grammar(schema);
            converted = true;
        } catch (const std::exception & e) {
            // "JSON schema conversion failed:\n<one error per line>"
            out["stage"] = "convert";
            for (const auto & l : split_lines(e.what())) {
                if (l != "JSON schema conversion failed:") {
                    out["errors"].push_back(l);
                }
            }
        }
        converter_stderr = cap.finish();
    }
    for (const auto & l : converter_stderr) {
        out["warnings"].push_back(l);
    }
    if (!converted) {
        return out;
    }

    out["grammar_bytes"] = gbnf.size();
    out["grammar_hash"]  = fnv1a64(gbnf);
    if (with_grammar) {
        out["grammar"] = gbnf;
    }

    std::vector<std::string> loader_stderr;
    llama_grammar * grammar = nullptr;
    {
        stderr_capture cap;
        try {
            grammar = llama_grammar_init_impl(nullptr, gbnf.c_str(), "root", false, nullptr, 0, nullptr, 0);
        } catch (const std::exception & e) {
            g_log.push_back(e.what());
        }
        loader_stderr = cap.finish();
    }
    if (!grammar) {
        out["stage"] = "grammar";
        // The parser prints "parse: error parsing grammar: <why>" followed by the whole
        // grammar; only the reason is kept.
        for (const auto & l : loader_stderr) {
            auto at = l.find("error parsing grammar: ");
            if (at != std::string::npos) {
                out["errors"].push_back("GBNF: " + l.substr(at + strlen("error parsing grammar: ")));
            }
        }
        for (const auto & l : g_log) {
            out["errors"].push_back(l);
        }
        if (out["errors"].empty()) {
            out["errors"].push_back("llama_grammar_init_impl returned null");
        }
        return out;
    }
    out["rules"] = llama_grammar_get_rules(grammar).size();
    llama_grammar_free_impl(grammar);
    out["ok"]    = true;
    out["stage"] = "ok";
    return out;
}

int main(int argc, char ** argv) {
    bool with_grammar = false;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--grammar") == 0) {
            with_grammar = true;
        } else if (std::strcmp(argv[i], "--version") == 0) {
#ifdef TOOLSCHEMA_LLAMA_SOURCE
            std::cout << TOOLSCHEMA_LLAMA_SOURCE << std::endl;
#endif
            return 0;
        } else {
            std::cerr << "usage: gbnf-driver [--grammar] < schemas.jsonl" << std::endl;
            return 2;
        }
    }
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.empty()) {
            continue;
        }
        std::cout << run_one(line, with_grammar).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        std::cout.flush();
    }
    return 0;
}
