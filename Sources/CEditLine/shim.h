// The system's libedit (Debian: libedit-dev), through its own interface. Its setup calls are
// variadic, which Swift cannot call, so this header wraps the few the prompt needs. One editor
// per process.
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <locale.h>
#include <histedit.h>

// State lives in function-local statics: Swift's importer emits inline functions, not header globals.
static inline EditLine **intents_editor_slot(void) { static EditLine *editor; return &editor; }
static inline History **intents_history_slot(void) { static History *history; return &history; }
static inline char *intents_prompt_slot(void) { static char text[256]; return text; }
#define intents_editor (*intents_editor_slot())
#define intents_history (*intents_history_slot())
#define intents_prompt_text (intents_prompt_slot())

static inline char *intents_prompt(EditLine *editor) {
    (void)editor;
    return intents_prompt_text;
}

/// Opens the editor on the terminal; `complete` is bound to Tab. Returns 0 on success.
static inline int intents_editor_open(const char *name, unsigned char (*complete)(EditLine *, int)) {
    HistEvent event;
    // libedit works in wide characters: without a UTF-8 locale a prompt like "›" does not convert.
    const char *locale = setlocale(LC_CTYPE, "");
    if (locale == NULL || MB_CUR_MAX == 1) setlocale(LC_CTYPE, "C.UTF-8");
    intents_editor = el_init(name, stdin, stdout, stderr);
    if (intents_editor == NULL) return -1;
    intents_history = history_init();
    history(intents_history, &event, H_SETSIZE, 1000);
    history(intents_history, &event, H_SETUNIQUE, 1);
    el_set(intents_editor, EL_EDITOR, "emacs");
    // libedit restores the terminal on signals and passes them on (Ctrl-C: see LineEditor.swift).
    el_set(intents_editor, EL_SIGNAL, 1);
    el_set(intents_editor, EL_PROMPT, intents_prompt);
    el_set(intents_editor, EL_HIST, history, intents_history);
    el_set(intents_editor, EL_ADDFN, "intents-complete", "Complete a phrase or command", complete);
    el_set(intents_editor, EL_BIND, "^I", "intents-complete", NULL);
    el_source(intents_editor, NULL);
    return 0;
}

/// Reads a line with `prompt`; NULL at end of input or when interrupted (`*count` is -1 then).
static inline const char *intents_editor_read(const char *prompt, int *count) {
    strncpy(intents_prompt_text, prompt, 255);
    intents_prompt_text[255] = 0;
    return el_gets(intents_editor, count);
}

static inline void intents_history_add(const char *line) {
    HistEvent event;
    history(intents_history, &event, H_ENTER, line);
}

static inline void intents_history_load(const char *path) {
    HistEvent event;
    history(intents_history, &event, H_LOAD, path);
}

static inline void intents_history_save(const char *path) {
    HistEvent event;
    history(intents_history, &event, H_SAVE, path);
}

static inline void intents_editor_close(void) {
    if (intents_editor) el_end(intents_editor);
    if (intents_history) history_end(intents_history);
    intents_editor = NULL;
    intents_history = NULL;
}
