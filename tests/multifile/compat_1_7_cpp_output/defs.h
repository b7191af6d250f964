/* The header the original main file included; `cpp` copied it into main.i. */
typedef struct {
    float x;
    float y;
} Pair;
