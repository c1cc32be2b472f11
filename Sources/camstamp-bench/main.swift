print("camstamp-bench: see bench/README.md")
