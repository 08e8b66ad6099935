package dev.modaal.courier

fun greeting(): String = "Hello from Courier"
