#ifndef TYPES_H
#define TYPES_H
typedef struct { float x; float y; } Pair;
#endif
