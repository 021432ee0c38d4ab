// libedit's readline-compatible interface (Debian: libedit-dev).
#include <stdio.h>
#include <editline/readline.h>
