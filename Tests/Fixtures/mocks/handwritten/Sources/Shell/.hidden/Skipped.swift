not an input: hidden folder
