// The second level of include_chain.br's includes.
#define CHAIN_DEPTH 2
