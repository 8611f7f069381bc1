print("lecternd")
