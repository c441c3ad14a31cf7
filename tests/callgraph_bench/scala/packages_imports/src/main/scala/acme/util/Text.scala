package acme.util

def titleCase(s: String): String = s.split(" ").map(capitalize).mkString(" ")

def capitalize(w: String): String = w.take(1).toUpperCase + w.drop(1)
