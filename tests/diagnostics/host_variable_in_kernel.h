// The header of host_variable_in_kernel.br: a host constant declared for the host code.
extern const float LIMIT;
