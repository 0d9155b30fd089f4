print("toneshaper")
