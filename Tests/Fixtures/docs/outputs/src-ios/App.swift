print(greeting())
