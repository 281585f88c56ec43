// C++: not barrierpair's language.
int helper() { return 1; }
