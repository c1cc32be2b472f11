print("camstamp")
