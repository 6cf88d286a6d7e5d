function Code(_)
  os.execute("touch /tmp/bookfilters-pwned")
end
