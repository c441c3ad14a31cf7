local report = require("report")

print(report.run(string.len))
print(report.build("x 1"))
