// placeholder: the runtime is being written
