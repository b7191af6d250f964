# brook_add_executable(name file.br ...): compile Brook sources with brcc into a program.
